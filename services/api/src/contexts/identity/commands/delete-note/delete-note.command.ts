import type { RequestContext } from '../../../../platform/auth';

export class DeleteNoteCommand {
  constructor(
    readonly userUuid: string,
    readonly noteId: string,
    readonly context: RequestContext,
  ) {}
}
