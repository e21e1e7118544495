import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../platform/clock';
import { ApiError } from '../../../../platform/http';
import { UserStreams } from '../../infrastructure/user-streams';
import { NoteReader } from '../../projections/user-notes/note-reader';
import { DeleteNoteCommand } from './delete-note.command';

@CommandHandler(DeleteNoteCommand)
export class DeleteNoteHandler implements ICommandHandler<DeleteNoteCommand, void> {
  constructor(
    private readonly streams: UserStreams,
    private readonly notes: NoteReader,
    private readonly clock: Clock,
  ) {}

  async execute({ noteId, context }: DeleteNoteCommand): Promise<void> {
    const note = await this.notes.findById(noteId);
    if (!note) throw new ApiError('error.entity.not.found');
    const now = this.clock.now();
    await this.streams.execute(note.userUuid, { type: 'DeleteNote', noteId, at: now }, context, now);
  }
}
