export { CommonModule } from './common.module';
