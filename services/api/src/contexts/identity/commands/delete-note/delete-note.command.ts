import type { RequestContext } from '../../../../platform/auth';

export class DeleteNoteCommand {
  constructor(
    readonly noteId: string,
    readonly context: RequestContext,
  ) {}
}
