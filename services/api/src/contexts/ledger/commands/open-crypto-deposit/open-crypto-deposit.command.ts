import { Command } from '@nestjs/cqrs';
import type { CryptoDepositResponse, CryptoMethod } from '@kupa/proto';
import type { Actor, RequestContext } from '../../../../platform/auth';

export class OpenCryptoDepositCommand extends Command<CryptoDepositResponse> {
  constructor(
    readonly actor: Actor,
    readonly amountMinor: number,
    readonly method: CryptoMethod,
    readonly context: RequestContext,
  ) {
    super();
  }
}
