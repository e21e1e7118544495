export { secretOf } from './infrastructure/secrets';
