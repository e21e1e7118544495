import HistoryIcon from '@mui/icons-material/History';
import { type ResourceProps } from 'react-admin';
import { ActivityLogList } from './activity-log-list';
import { ActivityLogShow } from './activity-log-show';

export const activityLog: Omit<ResourceProps, 'name'> = {
  list: ActivityLogList,
  show: ActivityLogShow,
  icon: HistoryIcon,
};
