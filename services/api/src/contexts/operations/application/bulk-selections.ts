import { Injectable } from '@nestjs/common';
import { type BulkAction, BULK_LIMITS, type BulkPreview, bulkTargetKindOf } from '@kupa/proto';
import { assert } from '../../../kernel';
import { ApiError, ValidationFailedError } from '../../../platform/http';
import { type ClientFilter, ClientSelection, UserReader } from '../../identity';
import { type SubscriptionFilter, SubscriptionSelection } from '../../subscriptions';
import type { FrozenTarget } from '../infrastructure/bulk-batches.store';

/** "All active clients": what a batch reaches when the admin gives no filter. */
export const ALL_ACTIVE_CLIENTS: ClientFilter = Object.freeze({ statuses: ['ACTIVE'] as const });

/** "All active subscriptions": what an ADD_DAYS batch reaches when the admin gives no filter. */
export const ALL_ACTIVE_SUBSCRIPTIONS: SubscriptionFilter = Object.freeze({ statuses: ['ACTIVE' as const] });

/** The targets the admin chose: clients with the clients list's filters, or subscriptions with the subscriptions list's. */
export type BulkSelection =
  { targetKind: 'CLIENT'; filter: ClientFilter } | { targetKind: 'SUBSCRIPTION'; filter: SubscriptionFilter };

/**
 * The selection a request names: ADD_DAYS takes `subscriptionFilter` (absent: every active subscription), the other
 * actions `filter` (absent: every active client). The other kind's filter is refused rather than quietly ignored.
 */
export function bulkSelectionOf(
  action: BulkAction,
  filter: ClientFilter | undefined,
  subscriptionFilter: SubscriptionFilter | undefined,
): BulkSelection {
  if (bulkTargetKindOf(action) === 'SUBSCRIPTION') {
    if (filter) throw new ValidationFailedError([{ field: 'filter', error: 'error.validation.invalid.field' }]);
    return {
      targetKind: 'SUBSCRIPTION',
      filter: subscriptionFilter ? { ...subscriptionFilter } : ALL_ACTIVE_SUBSCRIPTIONS,
    };
  }
  if (subscriptionFilter)
    throw new ValidationFailedError([{ field: 'subscriptionFilter', error: 'error.validation.invalid.field' }]);
  return { targetKind: 'CLIENT', filter: filter ? { ...filter } : ALL_ACTIVE_CLIENTS };
}

/** How many target labels are looked up at once when a batch freezes its targets. */
const LABEL_CHUNK = 1000;

/**
 * The targets of a batch, chosen with the staff lists' own filters through identity's door (`ClientSelection`, the
 * clients list's WHERE clause): counted for the preview, and frozen, all of them with their e-mail addresses, at the
 * start. ADD_DAYS selects subscriptions with the subscriptions list's filters through the subscriptions door
 * (`SubscriptionSelection`), each labelled with its client's e-mail address.
 */
@Injectable()
export class BulkSelections {
  constructor(
    private readonly clients: ClientSelection,
    private readonly users: UserReader,
    private readonly subscriptions: SubscriptionSelection,
  ) {}

  async preview(action: BulkAction, selection: BulkSelection): Promise<BulkPreview> {
    const { total, targets } = await this.select(action, selection, BULK_LIMITS.previewSample);
    return { action, targetKind: bulkTargetKindOf(action), total, sample: targets };
  }

  async freeze(action: BulkAction, selection: BulkSelection): Promise<FrozenTarget[]> {
    // One more than the limit: enough to know the selection is too large without listing all of it.
    const { total, targets } = await this.select(action, selection, BULK_LIMITS.maxTargets + 1);
    if (total > BULK_LIMITS.maxTargets)
      throw new ApiError('error.bulk.too.many.targets', { max: BULK_LIMITS.maxTargets });
    return targets;
  }

  private async select(
    action: BulkAction,
    selection: BulkSelection,
    limit: number,
  ): Promise<{ total: number; targets: FrozenTarget[] }> {
    assert(selection.targetKind === bulkTargetKindOf(action), `${action} selects ${bulkTargetKindOf(action)} targets`);
    if (selection.targetKind === 'SUBSCRIPTION') {
      const { total, subscriptions } = await this.subscriptions.select(selection.filter, limit);
      return { total, targets: subscriptions.map((one) => ({ id: one.id, label: one.userEmail })) };
    }
    const { total, userUuids } = await this.clients.select(selection.filter, limit);
    const targets: FrozenTarget[] = [];
    for (let start = 0; start < userUuids.length; start += LABEL_CHUNK)
      targets.push(...(await this.labelled(userUuids.slice(start, start + LABEL_CHUNK))));
    return { total, targets };
  }

  /** The uuids in their order, each with its e-mail address (a client deleted meanwhile keeps its uuid as label). */
  private async labelled(userUuids: readonly string[]): Promise<FrozenTarget[]> {
    const views = await this.users.findByUuids(userUuids);
    const emails = new Map(views.map((view) => [view.uuid, view.email]));
    return userUuids.map((id) => ({ id, label: emails.get(id) ?? id }));
  }
}
