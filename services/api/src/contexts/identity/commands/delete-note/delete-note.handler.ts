import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CommandPipeline } from '../../../../platform/commands';
import { ApiError } from '../../../../platform/http';
import { deleteNote } from '../../domain/user.decider';
import { userCommand } from '../../infrastructure/streams/user-streams';
import { NoteReader } from '../../projections/user-notes/note-reader';
import { DeleteNoteCommand } from './delete-note.command';

@CommandHandler(DeleteNoteCommand)
export class DeleteNoteHandler implements ICommandHandler<DeleteNoteCommand, void> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly notes: NoteReader,
  ) {}

  async execute({ noteId, context }: DeleteNoteCommand): Promise<void> {
    // The read model names the stream to lock; the decision checks the note against the stream itself.
    const note = await this.notes.findById(noteId);
    if (!note) throw new ApiError('error.entity.not.found');
    await this.pipeline.run(userCommand(note.userUuid, context, (user, { at }) => deleteNote({ noteId, at }, user)));
  }
}
