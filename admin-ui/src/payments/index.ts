import PaymentsIcon from '@mui/icons-material/Payments';
import { type ResourceProps } from 'react-admin';
import { PaymentList } from './payment-list';
import { PaymentShow } from './payment-show';

export const payments: Omit<ResourceProps, 'name'> = {
  list: PaymentList,
  show: PaymentShow,
  icon: PaymentsIcon,
  recordRepresentation: 'paymentId',
};
