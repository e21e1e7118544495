import AccountBalanceIcon from '@mui/icons-material/AccountBalance';
import { type ResourceProps } from 'react-admin';
import { lazyPage } from '../shared/lazy-page';

const DepositClaimsPage = lazyPage(() => import('./deposit-claims-page'), 'DepositClaimsPage');

/** Manual-transfer claims (ADR 0112): one list, open first, with settle (admins) and reject. */
export const depositClaims: Omit<ResourceProps, 'name'> = {
  list: DepositClaimsPage,
  icon: AccountBalanceIcon,
};
