import { planPrice } from '../features/packages/plan-price';

export const plans = planPrice(100);
