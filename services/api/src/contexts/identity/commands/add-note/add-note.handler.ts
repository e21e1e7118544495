import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Note } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { CommandPipeline } from '../../../../platform/commands';
import { addNote } from '../../domain/user.decider';
import { userCommand } from '../../infrastructure/streams/user-streams';
import { NoteReader } from '../../projections/user-notes/note-reader';
import { AddNoteCommand } from './add-note.command';

@CommandHandler(AddNoteCommand)
export class AddNoteHandler implements ICommandHandler<AddNoteCommand, Note> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly notes: NoteReader,
  ) {}

  async execute({ userUuid, text, context }: AddNoteCommand): Promise<Note> {
    const noteId = randomUUID();
    await this.pipeline.run(userCommand(userUuid, context, (user, { at }) => addNote({ noteId, text, at }, user)));
    const note = await this.notes.findById(noteId);
    if (!note) throw new Error(`Note ${noteId} missing right after it was added`);
    return note;
  }
}
