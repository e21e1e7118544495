import PeopleIcon from '@mui/icons-material/People';
import { type ResourceProps } from 'react-admin';
import { ClientList } from './client-list';
import { ClientShow } from './client-show';

export const clients: Omit<ResourceProps, 'name'> = {
  list: ClientList,
  show: ClientShow,
  icon: PeopleIcon,
  recordRepresentation: 'email',
};
