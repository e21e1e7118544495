import Inventory2Icon from '@mui/icons-material/Inventory2';
import { type ResourceProps } from 'react-admin';
import { PlaceholderList } from '../shared/placeholder-list';

/** Packages have no API yet: the list is an empty state that sends no request. */
export const packages: Omit<ResourceProps, 'name'> = {
  list: PlaceholderList,
  icon: Inventory2Icon,
};
