import { Controller, Get, Header, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import { minorToAmount, type PromoCodeHold } from '@kupa/proto';
import { DataSource } from 'typeorm';
import { Roles } from '../../../../platform/auth';
import { Clock } from '../../../../platform/clock';
import { ApiErrors } from '../../../../platform/http';
import { UserReader } from '../../../identity';
import { PromoCodes } from '../../application/promo-codes';
import { PromoCodeHoldDto } from '../../infrastructure/promo-codes.responses';
import { PROMO_CODE_RESERVATIONS_TABLE } from '../../projections/promo-codes/promo-codes.projection';

interface HoldRow {
  code: string;
  user_uuid: string;
  deposit_payment_id: string;
  subscription_id: string;
  price_minor: string;
  discount_minor: string;
  reserved_at: Date;
  expires_at: Date;
}

/**
 * A code's live holds (docs/adr/0088-promo-codes.md, "Card checkout and crypto deposits"): the uses held for a card
 * checkout or a crypto deposit not settled yet and not expired, oldest first. The same rule as the limits' count
 * under the lock: HELD and `expires_at` after now, by the server's clock.
 */
@ApiTags('promo-codes')
@ApiBearerAuth()
@Controller('promo-codes')
export class PromoCodeHoldsController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly promoCodes: PromoCodes,
    private readonly users: UserReader,
    private readonly clock: Clock,
  ) {}

  /** 400 `error.promo.code.invalid`; 404 `error.promo.code.not.found`. */
  @Get(':code/holds')
  @ApiParam({ name: 'code', description: 'The code, any case' })
  @ApiOkResponse({ type: PromoCodeHoldDto, isArray: true })
  @ApiErrors(400, 401, 403, 404)
  @Roles('ADMIN', 'MANAGER')
  @Header('Cache-Control', 'no-store')
  async holds(@Param('code') raw: string): Promise<PromoCodeHold[]> {
    const code = await this.promoCodes.existingNamedInPath(raw);
    const rows: HoldRow[] = await this.dataSource.query(
      `SELECT code, user_uuid, deposit_payment_id::text AS deposit_payment_id, subscription_id,
              price_minor::text AS price_minor, discount_minor::text AS discount_minor, reserved_at, expires_at
         FROM ${PROMO_CODE_RESERVATIONS_TABLE}
        WHERE code = $1 AND status = 'HELD' AND expires_at > $2
        ORDER BY reserved_at, deposit_payment_id`,
      [code, this.clock.now()],
    );
    const emails = new Map(
      (await this.users.findByUuids([...new Set(rows.map((row) => row.user_uuid))])).map((user) => [
        user.uuid,
        user.email,
      ]),
    );
    return rows.map((row) => ({
      code: row.code,
      userUuid: row.user_uuid,
      userEmail: emails.get(row.user_uuid) ?? row.user_uuid,
      depositPaymentId: Number(row.deposit_payment_id),
      subscriptionId: row.subscription_id,
      price: minorToAmount(Number(row.price_minor)),
      discount: minorToAmount(Number(row.discount_minor)),
      heldSince: row.reserved_at.toISOString(),
      expiresAt: row.expires_at.toISOString(),
    }));
  }
}
