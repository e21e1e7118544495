import type { Actor } from '../../../../platform/auth';

export class GetUserQuery {
  constructor(
    readonly actor: Actor,
    readonly userUuid: string,
  ) {}
}
