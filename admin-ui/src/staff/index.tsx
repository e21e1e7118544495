import BadgeIcon from '@mui/icons-material/Badge';
import { type ResourceProps } from 'react-admin';
import { lazyPage } from '../shared/lazy-page';

const StaffList = lazyPage(() => import('./staff-list'), 'StaffList');

/**
 * The staff list, an admin's (ADR 0078). It has no detail page of its own: a staff account's detail is the client
 * detail (`/clients/{id}`), which already holds the role, status, password and two-factor actions.
 */
export const staff: Omit<ResourceProps, 'name'> = {
  list: StaffList,
  icon: BadgeIcon,
  recordRepresentation: 'email',
};
