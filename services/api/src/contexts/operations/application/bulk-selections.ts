import { Injectable } from '@nestjs/common';
import { type BulkAction, BULK_LIMITS, type BulkPreview, bulkTargetKindOf } from '@kupa/proto';
import { ApiError } from '../../../platform/http';
import { type ClientFilter, ClientSelection, UserReader } from '../../identity';
import type { FrozenTarget } from '../infrastructure/bulk-batches.store';

/** "All active clients": what a batch reaches when the admin gives no filter. */
export const ALL_ACTIVE_CLIENTS: ClientFilter = Object.freeze({ statuses: ['ACTIVE'] as const });

/** How many target labels are looked up at once when a batch freezes its targets. */
const LABEL_CHUNK = 1000;

/**
 * The targets of a batch, chosen with the staff lists' own filters through identity's door (`ClientSelection`, the
 * clients list's WHERE clause): counted for the preview, and frozen, all of them with their e-mail addresses, at the
 * start. Subscriptions (for ADD_DAYS) wait for the subscriptions context's extension primitive.
 */
@Injectable()
export class BulkSelections {
  constructor(
    private readonly clients: ClientSelection,
    private readonly users: UserReader,
  ) {}

  async preview(action: BulkAction, filter: ClientFilter): Promise<BulkPreview> {
    this.assertAvailable(action);
    const { total, userUuids } = await this.clients.select(filter, BULK_LIMITS.previewSample);
    return { action, targetKind: bulkTargetKindOf(action), total, sample: await this.labelled(userUuids) };
  }

  async freeze(action: BulkAction, filter: ClientFilter): Promise<FrozenTarget[]> {
    this.assertAvailable(action);
    // One more than the limit: enough to know the selection is too large without listing all of it.
    const { total, userUuids } = await this.clients.select(filter, BULK_LIMITS.maxTargets + 1);
    if (total > BULK_LIMITS.maxTargets)
      throw new ApiError('error.bulk.too.many.targets', { max: BULK_LIMITS.maxTargets });
    const targets: FrozenTarget[] = [];
    for (let start = 0; start < userUuids.length; start += LABEL_CHUNK)
      targets.push(...(await this.labelled(userUuids.slice(start, start + LABEL_CHUNK))));
    return targets;
  }

  private assertAvailable(action: BulkAction): void {
    if (action === 'ADD_DAYS') throw new ApiError('error.bulk.action.unavailable');
  }

  /** The uuids in their order, each with its e-mail address (a client deleted meanwhile keeps its uuid as label). */
  private async labelled(userUuids: readonly string[]): Promise<FrozenTarget[]> {
    const views = await this.users.findByUuids(userUuids);
    const emails = new Map(views.map((view) => [view.uuid, view.email]));
    return userUuids.map((id) => ({ id, label: emails.get(id) ?? id }));
  }
}
