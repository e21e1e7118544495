import type { SearchAuditLogsRequestDto } from './search-audit-logs.request.dto';

export class SearchAuditLogsQuery {
  constructor(readonly request: SearchAuditLogsRequestDto) {}
}
