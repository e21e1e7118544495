import { type Subscription } from '@kupa/proto';
import { type RaRecord, useRecordContext, useTranslate } from 'react-admin';

export type SubscriptionRecord = Subscription & RaRecord;

/** Trials belong to no package and have their own rules: they cannot be cancelled nor change their login. */
export function isTrial(subscription: Pick<Subscription, 'type'>): boolean {
  return subscription.type !== 'REGULAR';
}

/** Whether the subscription still holds an account at the streaming service (its login and password still matter). */
export function holdsAccount(subscription: Pick<Subscription, 'status'>): boolean {
  return subscription.status !== 'EXPIRED' && subscription.status !== 'CANCELED';
}

/** The package's name as it was bought (it may be Hebrew or Latin), or "Trial" for a trial, which has none. */
export function PlanNameField(_props: { source?: string; label?: string; sortable?: boolean }) {
  const record = useRecordContext<SubscriptionRecord>();
  const translate = useTranslate();
  if (!record) return null;
  return record.paymentPlan ? (
    <span dir="auto">{record.paymentPlan.planName}</span>
  ) : (
    <span>{translate('kupa.subscriptions.trial_plan')}</span>
  );
}

/** A subscription id is a uuid: its first block is enough to tell rows apart on screen; the whole id is the title. */
export function ShortIdField(_props: { source?: string }) {
  const record = useRecordContext<SubscriptionRecord>();
  if (!record) return null;
  return (
    <bdi dir="ltr" title={record.id}>
      {String(record.id).slice(0, 8)}
    </bdi>
  );
}
