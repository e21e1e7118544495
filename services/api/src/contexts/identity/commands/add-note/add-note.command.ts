import type { RequestContext } from '../../../../platform/auth';

export class AddNoteCommand {
  constructor(
    readonly userUuid: string,
    readonly text: string,
    readonly context: RequestContext,
  ) {}
}
