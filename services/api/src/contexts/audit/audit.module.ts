import { Global, Module, type OnModuleInit } from '@nestjs/common';
import { InlineProjectionRegistry, ProcessorRunner } from '../../platform/projections';
import { AuditMapperRegistry } from './audit-mapper';
import { AuditNameRegistry } from './audit-names';
import { AuditLogCatchUp } from './projections/audit-log/audit-log-catch-up';
import { AuditLogProcessor, AuditLogProjection } from './projections/audit-log/audit-log.projection';
import { GetAuditLogController } from './queries/get-audit-log/get-audit-log.controller';
import { GetAuditLogHandler } from './queries/get-audit-log/get-audit-log.handler';
import { SearchAuditLogsController } from './queries/search-audit-logs/search-audit-logs.controller';
import { SearchAuditLogsHandler } from './queries/search-audit-logs/search-audit-logs.handler';

/**
 * The activity log. Global because every context registers its audit mappers (and the namers of its targets) with
 * the exported registries; the projection reads the mappers at append time and the queries the namers at read time,
 * so the order in which modules initialise does not matter.
 */
@Global()
@Module({
  // The literal `search` route first, so that it is never read as an `:id`.
  controllers: [SearchAuditLogsController, GetAuditLogController],
  providers: [AuditMapperRegistry, AuditNameRegistry, AuditLogCatchUp, SearchAuditLogsHandler, GetAuditLogHandler],
  exports: [AuditMapperRegistry, AuditNameRegistry],
})
export class AuditModule implements OnModuleInit {
  constructor(
    private readonly projections: InlineProjectionRegistry,
    private readonly processors: ProcessorRunner,
    private readonly mappers: AuditMapperRegistry,
  ) {}

  onModuleInit(): void {
    // Registered with both: the processor keeps it after the commit, the registry rebuilds and replay-checks it.
    const projection = new AuditLogProjection(this.mappers);
    this.projections.register(projection);
    this.processors.register(new AuditLogProcessor(projection));
  }
}
