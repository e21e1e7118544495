import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Note } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { Clock } from '../../../../platform/clock';
import { UserStreams } from '../../infrastructure/user-streams';
import { NoteReader } from '../../projections/user-notes/note-reader';
import { AddNoteCommand } from './add-note.command';

@CommandHandler(AddNoteCommand)
export class AddNoteHandler implements ICommandHandler<AddNoteCommand, Note> {
  constructor(
    private readonly streams: UserStreams,
    private readonly notes: NoteReader,
    private readonly clock: Clock,
  ) {}

  async execute({ userUuid, text, context }: AddNoteCommand): Promise<Note> {
    const noteId = randomUUID();
    const now = this.clock.now();
    await this.streams.execute(userUuid, { type: 'AddNote', noteId, text, at: now }, context, now);
    const note = await this.notes.findById(noteId);
    if (!note) throw new Error(`Note ${noteId} missing right after it was added`);
    return note;
  }
}
