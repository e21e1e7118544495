import { type UserRole } from '@kupa/proto';
import SubscriptionsIcon from '@mui/icons-material/Subscriptions';
import { type ResourceProps } from 'react-admin';
import { NotFoundPage } from '../layout/not-found';
import { canListSubscriptions } from '../resources';
import { lazyPage } from '../shared/lazy-page';

const SubscriptionList = lazyPage(() => import('./subscription-list'), 'SubscriptionList');
const SubscriptionShow = lazyPage(() => import('./subscription-show'), 'SubscriptionShow');

/**
 * The subscriptions resource for a role: both staff roles open a subscription's details (a manager from a client's
 * subscriptions tab); only an admin has the list. A manager at the list's address is sent home, as for any page of
 * the console that is not theirs.
 */
export function subscriptionsFor(role: UserRole | null): Omit<ResourceProps, 'name'> {
  return {
    list: canListSubscriptions(role) ? SubscriptionList : NotFoundPage,
    show: SubscriptionShow,
    icon: SubscriptionsIcon,
    recordRepresentation: 'login',
  };
}
