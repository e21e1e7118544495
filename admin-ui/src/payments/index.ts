import PaymentsIcon from '@mui/icons-material/Payments';
import { type ResourceProps } from 'react-admin';
import { lazyPage } from '../shared/lazy-page';

const PaymentList = lazyPage(() => import('./payment-list'), 'PaymentList');
const PaymentShow = lazyPage(() => import('./payment-show'), 'PaymentShow');

export const payments: Omit<ResourceProps, 'name'> = {
  list: PaymentList,
  show: PaymentShow,
  icon: PaymentsIcon,
  recordRepresentation: 'paymentId',
};
