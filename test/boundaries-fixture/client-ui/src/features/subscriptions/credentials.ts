export const credentials = 'login';
