export const planPrice = (priceMinor: number): string => `${priceMinor / 100}`;
