export const cents = (amount: number): number => Math.round(amount * 100);
