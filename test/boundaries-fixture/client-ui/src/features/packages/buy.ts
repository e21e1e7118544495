import { credentials } from '../subscriptions/credentials';
import { planPrice } from './plan-price';
import { plans } from '../../lib/plans';

export const buy = `${credentials} ${planPrice(100)} ${plans}`;
