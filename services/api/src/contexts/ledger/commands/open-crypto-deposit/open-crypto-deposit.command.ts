import type { CryptoMethod } from '@kupa/proto';
import type { Actor, RequestContext } from '../../../../platform/auth';

export class OpenCryptoDepositCommand {
  constructor(
    readonly actor: Actor,
    readonly amountMinor: number,
    readonly method: CryptoMethod,
    readonly context: RequestContext,
  ) {}
}
