import { Query } from '@nestjs/cqrs';
import type { AuditLog, Page } from '@kupa/proto';
import type { SearchAuditLogsRequestDto } from './search-audit-logs.request.dto';

export class SearchAuditLogsQuery extends Query<Page<AuditLog>> {
  constructor(readonly request: SearchAuditLogsRequestDto) {
    super();
  }
}
