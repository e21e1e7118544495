import RedeemIcon from '@mui/icons-material/Redeem';
import { type ResourceProps } from 'react-admin';
import { lazyPage } from '../shared/lazy-page';

const VoucherBatchesPage = lazyPage(() => import('./voucher-batches-page'), 'VoucherBatchesPage');

/** Prepaid vouchers (ADR 0089): one page of batches, for admins. */
export const vouchers: Omit<ResourceProps, 'name'> = {
  list: VoucherBatchesPage,
  icon: RedeemIcon,
};
