import PlaylistAddCheckIcon from '@mui/icons-material/PlaylistAddCheck';
import { type ResourceProps } from 'react-admin';
import { lazyPage } from '../shared/lazy-page';

const BulkOperationsPage = lazyPage(() => import('./bulk-operations-page'), 'BulkOperationsPage');

/** Bulk operations (ADR 0090): one page to start a batch, follow it and read past ones, for admins. */
export const bulkOperations: Omit<ResourceProps, 'name'> = {
  list: BulkOperationsPage,
  icon: PlaylistAddCheckIcon,
};
