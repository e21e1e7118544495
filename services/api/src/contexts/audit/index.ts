import { AuditCorrelationId1770600003210 } from './infrastructure/audit-correlation.migrations';
import { AuditLogProcessorCheckpoint1772300012600 } from './infrastructure/audit-log-checkpoint.migration';
import { AuditSchema1767225600800 } from './infrastructure/audit.migrations';

export { AuditModule } from './audit.module';
export { type AuditEntryDraft, type AuditMapper, AuditMapperRegistry, keptOutOfTheLog } from './audit-mapper';
export { type AuditName, type AuditNamer, AuditNameRegistry } from './audit-names';
export { AuditLogCatchUp } from './projections/audit-log/audit-log-catch-up';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const auditMigrations: Function[] = [
  AuditSchema1767225600800,
  AuditCorrelationId1770600003210,
  AuditLogProcessorCheckpoint1772300012600,
];
