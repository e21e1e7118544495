import { Query } from '@nestjs/cqrs';
import type { AuditLog } from '@kupa/proto';

export class GetAuditLogQuery extends Query<AuditLog> {
  constructor(readonly id: string) {
    super();
  }
}
