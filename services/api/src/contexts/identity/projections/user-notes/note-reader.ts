import { Injectable } from '@nestjs/common';
import type { Note } from '@kupa/proto';
import { DataSource } from 'typeorm';
import { UserNoteView } from './user-note.entity';

function toNote(view: UserNoteView): Note {
  return {
    id: view.id,
    userUuid: view.userUuid,
    text: view.text,
    createdAt: view.createdAt.toISOString(),
    createdBy: { id: view.createdById, name: view.createdByName },
  };
}

@Injectable()
export class NoteReader {
  constructor(private readonly dataSource: DataSource) {}

  async findById(noteId: string): Promise<Note | null> {
    const view = await this.dataSource.getRepository(UserNoteView).findOne({ where: { id: noteId } });
    return view ? toNote(view) : null;
  }

  /** Newest first: staff read the latest contact first. */
  async listFor(userUuid: string): Promise<Note[]> {
    const views = await this.dataSource
      .getRepository(UserNoteView)
      .find({ where: { userUuid }, order: { createdAt: 'DESC', id: 'ASC' } });
    return views.map(toNote);
  }
}
