import type { RequestContext } from '../../../../platform/auth';

export class ConfirmEmailCommand {
  constructor(
    readonly token: string,
    readonly context: RequestContext,
  ) {}
}
