export const theme = 'light';
