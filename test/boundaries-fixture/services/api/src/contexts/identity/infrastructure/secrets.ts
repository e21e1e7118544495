export const secretOf = (name: string): string => `secret of ${name}`;
