import CampaignIcon from '@mui/icons-material/Campaign';
import { type ResourceProps } from 'react-admin';
import { lazyPage } from '../shared/lazy-page';

const BroadcastList = lazyPage(() => import('./broadcast-list'), 'BroadcastList');

/**
 * Broadcasts (docs/adr/0091-broadcasts.md), admins only: one page to compose, preview and send an announcement, the
 * list of those sent with their progress, and each one's recipients with their status.
 */
export const broadcasts: Omit<ResourceProps, 'name'> = { list: BroadcastList, icon: CampaignIcon };
