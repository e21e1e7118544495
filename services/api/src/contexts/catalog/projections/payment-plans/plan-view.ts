import { type Currency, minorToAmount, type Plan, type PlanDurationMonths, type PlanStatus } from '@kupa/proto';
import type { EntityManager } from 'typeorm';

/** A row of `payment_plans p`: a package as it is now. */
export interface PlanRow {
  id: string;
  name: string;
  duration_months: number;
  price_minor: string;
  currency: Currency;
  is_recurrent: boolean;
  card_payment_allowed: boolean;
  description: string;
  name_en: string;
  description_en: string;
  features: string[];
  status: PlanStatus;
  created_at: Date;
  updated_at: Date;
}

/** The columns a `Plan` is made from; the price leaves PostgreSQL as text, never as a lossy number. */
export const PLAN_COLUMNS = `p.id, p.name, p.duration_months, p.price_minor::text AS price_minor, p.currency, p.is_recurrent,
  p.card_payment_allowed, p.description, p.name_en, p.description_en, p.features, p.status, p.created_at, p.updated_at`;

export function toPlan(row: PlanRow): Plan {
  return {
    id: row.id,
    name: row.name,
    durationInMonths: row.duration_months as PlanDurationMonths,
    price: minorToAmount(BigInt(row.price_minor)),
    currency: row.currency,
    isRecurrent: row.is_recurrent,
    description: row.description,
    nameEn: row.name_en,
    descriptionEn: row.description_en,
    features: row.features,
    status: row.status,
    cardPaymentAllowed: row.card_payment_allowed,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** Whether a package other than `planId` has `name`, compared as the unique index compares names. */
export async function planNameTaken(manager: EntityManager, name: string, planId: string): Promise<boolean> {
  const rows: unknown[] = await manager.query(
    `SELECT 1 FROM payment_plans WHERE lower(name) = lower($1) AND id <> $2 LIMIT 1`,
    [name, planId],
  );
  return rows.length > 0;
}
