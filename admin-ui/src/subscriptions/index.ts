import SubscriptionsIcon from '@mui/icons-material/Subscriptions';
import { type ResourceProps } from 'react-admin';
import { PlaceholderList } from '../shared/placeholder-list';

/** Subscriptions have no API yet: the list is an empty state that sends no request. */
export const subscriptions: Omit<ResourceProps, 'name'> = {
  list: PlaceholderList,
  icon: SubscriptionsIcon,
};
