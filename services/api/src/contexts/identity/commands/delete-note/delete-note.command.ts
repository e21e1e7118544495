import { Command } from '@nestjs/cqrs';
import type { RequestContext } from '../../../../platform/auth';

export class DeleteNoteCommand extends Command<void> {
  constructor(
    readonly userUuid: string,
    readonly noteId: string,
    readonly context: RequestContext,
  ) {
    super();
  }
}
