import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TwoFactorEnrolment } from '@kupa/proto';
import { Clock } from '../../../../platform/clock';
import { ApiError } from '../../../../platform/http';
import { otpauthUri } from '../../infrastructure/two-factor/two-factor-codes';
import { TwoFactorStore } from '../../infrastructure/two-factor/two-factor-store';
import { StartTwoFactorEnrolmentCommand } from './start-two-factor-enrolment.command';

/**
 * Makes a PENDING authenticator secret and answers what an authenticator app needs. Nothing is appended: the account
 * changes only when the first code confirms the secret (activation). The QR code is a `data:` URL made here: a
 * Content-Security-Policy of `img-src 'self' data:` allows it, and the secret goes to no third-party image service.
 */
@CommandHandler(StartTwoFactorEnrolmentCommand)
export class StartTwoFactorEnrolmentHandler implements ICommandHandler<
  StartTwoFactorEnrolmentCommand,
  TwoFactorEnrolment
> {
  constructor(
    private readonly store: TwoFactorStore,
    private readonly clock: Clock,
  ) {}

  async execute({ actor }: StartTwoFactorEnrolmentCommand): Promise<TwoFactorEnrolment> {
    const secret = await this.store.startEnrolment(actor.userUuid, this.clock.now());
    if (secret === null) throw new ApiError('error.otp.already.enabled');
    const uri = otpauthUri(actor.email, secret);
    // qrcode and pngjs (~60 modules) load at the first enrolment, not at every start (docs/benchmarks.md, "CI time").
    const { toDataURL } = await import('qrcode');
    return { secret, otpauthUri: uri, qrDataUrl: await toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2 }) };
  }
}
