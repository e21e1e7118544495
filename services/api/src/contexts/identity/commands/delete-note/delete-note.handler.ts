import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CommandPipeline } from '../../../../platform/commands';
import { deleteNote } from '../../domain/user.decider';
import { userCommand } from '../../infrastructure/streams/user-streams';
import { DeleteNoteCommand } from './delete-note.command';

@CommandHandler(DeleteNoteCommand)
export class DeleteNoteHandler implements ICommandHandler<DeleteNoteCommand, void> {
  constructor(private readonly pipeline: CommandPipeline) {}

  async execute({ userUuid, noteId, context }: DeleteNoteCommand): Promise<void> {
    // The path names the user's stream; its decision refuses a note that is not that user's (404 like a missing one).
    await this.pipeline.run(userCommand(userUuid, context, (user, { at }) => deleteNote({ noteId, at }, user)));
  }
}
