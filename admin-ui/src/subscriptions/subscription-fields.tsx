import {
  INTENT_COLOURS,
  type Subscription,
  subscriptionPeriodLabel,
  subscriptionShownState,
  subscriptionStateIntent,
  subscriptionStateLabel,
} from '@kupa/proto';
import CircleIcon from '@mui/icons-material/Circle';
import { Chip } from '@mui/material';
import { type RaRecord, useRecordContext, useTranslate } from 'react-admin';
import { useLang } from '../shared/use-lang';

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

/**
 * The subscription's state as both apps show it (proto's `subscriptionStateLabel`): a cancelled subscription that
 * still runs reads as cancelled, not as a plain "Active" (ADR 0076). Coloured like the payment status chips.
 */
export function SubscriptionStateField(_props: { source?: string; label?: string; sortable?: boolean }) {
  const record = useRecordContext<SubscriptionRecord>();
  const lang = useLang();
  if (!record) return null;
  const intent = subscriptionStateIntent(record);
  return (
    <Chip
      size="small"
      variant="outlined"
      color={INTENT_COLOURS[intent].badge}
      icon={<CircleIcon />}
      label={subscriptionStateLabel(record, lang)}
      data-value={subscriptionShownState(record)}
      data-intent={intent}
      // The words stay in the text colour: the warning shade is too light for small text on a light page (WCAG AA).
      sx={{ '& .MuiChip-label': { color: 'text.primary' }, '& .MuiChip-icon': { fontSize: 10 } }}
    />
  );
}

/** How long a period runs: the package's duration, or the trial's days (a trial stores 0 months). */
export function SubscriptionPeriodField(_props: { source?: string; label?: string; sortable?: boolean }) {
  const record = useRecordContext<SubscriptionRecord>();
  const lang = useLang();
  if (!record) return null;
  return <span data-value={record.durationInMonth}>{subscriptionPeriodLabel(record, lang)}</span>;
}
