import { adminApp } from '../../admin-ui/src/app';

export const staffLink = `/admin ${adminApp}`;
