import { planPrice } from '../packages/plan-price';
import { plans } from '../../lib/plans';

export const renew = `${planPrice(100)} ${plans}`;
