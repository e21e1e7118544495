import { Command } from '@nestjs/cqrs';
import type { Note } from '@kupa/proto';
import type { RequestContext } from '../../../../platform/auth';

export class AddNoteCommand extends Command<Note> {
  constructor(
    readonly userUuid: string,
    readonly text: string,
    readonly context: RequestContext,
  ) {
    super();
  }
}
