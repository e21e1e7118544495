export class GetAuditLogQuery {
  constructor(readonly id: string) {}
}
