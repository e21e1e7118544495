import HistoryIcon from '@mui/icons-material/History';
import { type ResourceProps } from 'react-admin';
import { lazyPage } from '../shared/lazy-page';

const ActivityLogList = lazyPage(() => import('./activity-log-list'), 'ActivityLogList');
const ActivityLogShow = lazyPage(() => import('./activity-log-show'), 'ActivityLogShow');

export const activityLog: Omit<ResourceProps, 'name'> = {
  list: ActivityLogList,
  show: ActivityLogShow,
  icon: HistoryIcon,
};
