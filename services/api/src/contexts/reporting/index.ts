export { ReportingModule } from './reporting.module';
