import { Injectable } from '@nestjs/common';
import {
  minorToAmount,
  normalizePromoCode,
  type PromoCodeEvent,
  type PromoCodeUse,
  promoCodeStreamId,
  type PromoCodeView,
} from '@kupa/proto';
import { DataSource, type EntityManager } from 'typeorm';
import { fold } from '../../../kernel';
import type { StreamRef } from '../../../platform/commands';
import { EventStore } from '../../../platform/event-store';
import { ApiError } from '../../../platform/http';
import { type PromoCodeState, promoCodeEvolution } from '../domain/promo-code.decider';
import { promoCodeStreams } from '../infrastructure/promo-code-streams';
import { PROMO_CODE_RESERVATIONS_TABLE, PROMO_CODES_TABLE } from '../projections/promo-codes/promo-codes.projection';

/** The promo code a purchase or renewal names, checked before its locks, with the facts its decision needs. */
export interface PromoCodeRequest {
  code: string;
  use: PromoCodeUse;
  isNewClient: boolean;
}

/** A command's optional promo code stream: present only when the buyer gave a code, so no code locks nothing. */
export type PromoCodeStreams = { promo: StreamRef<PromoCodeState, PromoCodeEvent> };

/**
 * What the buy and renew commands and the quote need of promo codes (docs/adr/0088-promo-codes.md): the code in its
 * stored form, refused early when it is not a code or unknown (so a typo never creates a stream), whether the buyer is
 * a new client, and the code's stream.
 */
@Injectable()
export class PromoCodes {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: EventStore,
  ) {}

  /** The code as stored: 400 `error.promo.code.invalid` when it is not of a code's form. */
  normalize(raw: string): string {
    const code = normalizePromoCode(raw);
    if (code === null) throw new ApiError('error.promo.code.invalid');
    return code;
  }

  /** A code that exists, in its stored form; 404 `error.promo.code.not.found` otherwise. */
  /**
   * `existing` for a code named in a path, which names it exactly in any case: surrounding spaces are another
   * spelling, not the code (400 `error.promo.code.invalid`), where a code typed into a form is trimmed.
   */
  async existingNamedInPath(raw: string): Promise<string> {
    if (raw !== raw.trim()) throw new ApiError('error.promo.code.invalid');
    return this.existing(raw);
  }

  async existing(raw: string): Promise<string> {
    const code = this.normalize(raw);
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM ${PROMO_CODES_TABLE} WHERE code = $1`, [code]);
    if (rows.length === 0) throw new ApiError('error.promo.code.not.found');
    return code;
  }

  /** A new client never bought a package (a trial does not count): read before the locks, see the ADR. */
  async isNewClient(userUuid: string, manager: EntityManager = this.dataSource.manager): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `SELECT 1 FROM subscriptions WHERE user_uuid = $1 AND type = 'REGULAR' LIMIT 1`,
      [userUuid],
    );
    return rows.length === 0;
  }

  /** The request a purchase or renewal carries, or null without a code. */
  async request(raw: string | undefined, use: PromoCodeUse, userUuid: string): Promise<PromoCodeRequest | null> {
    if (raw === undefined || raw.trim() === '') return null;
    const code = await this.existing(raw);
    return { code, use, isNewClient: await this.isNewClient(userUuid) };
  }

  /** The stream to lock beside the payment's, when there is a code. */
  streams(request: PromoCodeRequest | null): PromoCodeStreams {
    // The pipeline loads only the streams named; without a code the member is absent and never read (see callers).
    return (request === null ? {} : { promo: promoCodeStreams.ref(request.code) }) as PromoCodeStreams;
  }

  /**
   * The code a card checkout or crypto deposit held a use of, read before the settlement's locks so the code's stream
   * can be named among them (a hold settled or released since is decided away under the lock); null for none.
   */
  async reservedFor(depositPaymentId: number): Promise<string | null> {
    const rows: Array<{ code: string }> = await this.dataSource.query(
      `SELECT code FROM ${PROMO_CODE_RESERVATIONS_TABLE} WHERE deposit_payment_id = $1`,
      [depositPaymentId],
    );
    return rows[0]?.code ?? null;
  }

  /** The code's state as its stream tells it now, without a lock: for a quote, which changes nothing. */
  async stateOf(code: string): Promise<PromoCodeState> {
    const events = await this.store.readStream(promoCodeStreamId(code));
    return fold(
      promoCodeEvolution,
      events.map((event) => ({ type: event.type, data: event.data }) as PromoCodeEvent),
    );
  }

  async list(): Promise<PromoCodeView[]> {
    const rows: PromoCodeRow[] = await this.dataSource.query(
      `SELECT * FROM ${PROMO_CODES_TABLE} ORDER BY created_at DESC, code`,
    );
    return rows.map(viewOf);
  }

  async find(code: string): Promise<PromoCodeView | null> {
    const rows: PromoCodeRow[] = await this.dataSource.query(`SELECT * FROM ${PROMO_CODES_TABLE} WHERE code = $1`, [
      code,
    ]);
    return rows.length === 0 ? null : viewOf(rows[0]);
  }
}

interface PromoCodeRow {
  code: string;
  discount_kind: PromoCodeView['discountKind'];
  percent: number | null;
  amount_minor: string | null;
  applies_to: PromoCodeView['appliesTo'];
  plan_ids: string[] | null;
  valid_from: Date | null;
  valid_until: Date | null;
  max_uses: number | null;
  max_uses_per_client: number | null;
  new_clients_only: boolean;
  status: PromoCodeView['status'];
  uses: number;
  revenue_minor: string;
  discount_given_minor: string;
  created_at: Date;
  disabled_at: Date | null;
}

function viewOf(row: PromoCodeRow): PromoCodeView {
  return {
    code: row.code,
    discountKind: row.discount_kind,
    percent: row.percent,
    amount: row.amount_minor === null ? null : minorToAmount(Number(row.amount_minor)),
    appliesTo: row.applies_to,
    planIds: row.plan_ids,
    validFrom: row.valid_from?.toISOString() ?? null,
    validUntil: row.valid_until?.toISOString() ?? null,
    maxUses: row.max_uses,
    maxUsesPerClient: row.max_uses_per_client,
    newClientsOnly: row.new_clients_only,
    status: row.status,
    uses: row.uses,
    revenue: minorToAmount(Number(row.revenue_minor)),
    discountGiven: minorToAmount(Number(row.discount_given_minor)),
    createdAt: row.created_at.toISOString(),
    disabledAt: row.disabled_at?.toISOString() ?? null,
  };
}
