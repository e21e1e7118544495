import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import { type ResourceProps } from 'react-admin';
import { lazyPage } from '../shared/lazy-page';

const PromoCodeList = lazyPage(() => import('./promo-code-list'), 'PromoCodeList');

/**
 * Promo codes (docs/adr/0088-promo-codes.md): one page, the list with each code's uses and revenue; admins create and
 * disable codes from it, managers only read it.
 */
export const promoCodes: Omit<ResourceProps, 'name'> = { list: PromoCodeList, icon: LocalOfferIcon };
