import { Injectable } from '@nestjs/common';
import type { Note } from '@kupa/proto';
import { DataSource } from 'typeorm';

/** A row of `user_notes n`: a staff note about a user, added and deleted through the user stream. */
interface NoteRow {
  id: string;
  user_uuid: string;
  text: string;
  created_at: Date;
  created_by_id: string;
  created_by_name: string;
}

const NOTE_COLUMNS = 'n.id, n.user_uuid, n.text, n.created_at, n.created_by_id, n.created_by_name';

function toNote(row: NoteRow): Note {
  return {
    id: row.id,
    userUuid: row.user_uuid,
    text: row.text,
    createdAt: row.created_at.toISOString(),
    createdBy: { id: row.created_by_id, name: row.created_by_name },
  };
}

@Injectable()
export class NoteReader {
  constructor(private readonly dataSource: DataSource) {}

  async findById(noteId: string): Promise<Note | null> {
    const rows: NoteRow[] = await this.dataSource.query(`SELECT ${NOTE_COLUMNS} FROM user_notes n WHERE n.id = $1`, [
      noteId,
    ]);
    return rows[0] ? toNote(rows[0]) : null;
  }

  /** Newest first: staff read the latest contact first. */
  async listFor(userUuid: string): Promise<Note[]> {
    const rows: NoteRow[] = await this.dataSource.query(
      `SELECT ${NOTE_COLUMNS} FROM user_notes n WHERE n.user_uuid = $1 ORDER BY n.created_at DESC, n.id ASC`,
      [userUuid],
    );
    return rows.map(toNote);
  }
}
