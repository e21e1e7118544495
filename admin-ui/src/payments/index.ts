import PaymentsIcon from '@mui/icons-material/Payments';
import { type ResourceProps } from 'react-admin';
import { PlaceholderList } from '../shared/placeholder-list';

/** Payments have no API yet: the list is an empty state that sends no request. */
export const payments: Omit<ResourceProps, 'name'> = {
  list: PlaceholderList,
  icon: PaymentsIcon,
};
