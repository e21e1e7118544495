import { Module, type OnModuleInit } from '@nestjs/common';
import { AuditMapperRegistry, AuditNameRegistry } from '../audit';
import { EventTypeRegistry } from '../../platform/event-store';
import { InlineProjectionRegistry } from '../../platform/projections';
import { auditNamesOf, CATALOG_AUDIT_MAPPERS } from './catalog.audit';
import { ChangePlanStatusController } from './commands/change-plan-status/change-plan-status.controller';
import { ChangePlanStatusHandler } from './commands/change-plan-status/change-plan-status.handler';
import { CreatePlanController } from './commands/create-plan/create-plan.controller';
import { CreatePlanHandler } from './commands/create-plan/create-plan.handler';
import { DeletePlanController } from './commands/delete-plan/delete-plan.controller';
import { DeletePlanHandler } from './commands/delete-plan/delete-plan.handler';
import { UpdatePlanController } from './commands/update-plan/update-plan.controller';
import { UpdatePlanHandler } from './commands/update-plan/update-plan.handler';
import { ALL_PAYMENT_PLAN_EVENT_TYPES, PAYMENT_PLAN_EVENT_SCHEMAS } from './domain/plan.events';
import { PaymentPlansProjection } from './projections/payment-plans/payment-plans.projection';
import { PlanReader } from './projections/payment-plans/plan-reader';
import { GetPlanController } from './queries/get-plan/get-plan.controller';
import { GetPlanHandler } from './queries/get-plan/get-plan.handler';
import { SearchPlansController } from './queries/search-plans/search-plans.controller';
import { SearchPlansHandler } from './queries/search-plans/search-plans.handler';

/**
 * The catalog: packages (payment plans) as `plan-{uuid}` streams, their read model and the admin commands on them
 * (docs/product.md, Catalog). Whether a subscription refers to a package comes through the `PlanReferences` port,
 * which the (global) subscriptions module binds to its own table (docs/adr/0021-catalog-plan-references.md).
 */
@Module({
  // The literal `search` path first, so that it is never read as an `:id`.
  controllers: [
    SearchPlansController,
    CreatePlanController,
    GetPlanController,
    UpdatePlanController,
    ChangePlanStatusController,
    DeletePlanController,
  ],
  providers: [
    PlanReader,
    CreatePlanHandler,
    UpdatePlanHandler,
    ChangePlanStatusHandler,
    DeletePlanHandler,
    GetPlanHandler,
    SearchPlansHandler,
  ],
})
export class CatalogModule implements OnModuleInit {
  constructor(
    private readonly eventTypes: EventTypeRegistry,
    private readonly projections: InlineProjectionRegistry,
    private readonly auditMappers: AuditMapperRegistry,
    private readonly auditNames: AuditNameRegistry,
    private readonly plans: PlanReader,
  ) {}

  onModuleInit(): void {
    for (const type of ALL_PAYMENT_PLAN_EVENT_TYPES) this.eventTypes.register(type, PAYMENT_PLAN_EVENT_SCHEMAS[type]);
    this.projections.register(new PaymentPlansProjection());
    for (const type of ALL_PAYMENT_PLAN_EVENT_TYPES) this.auditMappers.register(type, CATALOG_AUDIT_MAPPERS[type]);
    this.auditNames.register(['PACKAGE'], (ids) => auditNamesOf(this.plans, ids));
    // A deleted package keeps the name its entries last recorded (events, and so entries, are never rewritten).
    this.auditNames.registerRecordedName('PACKAGE', 'name');
  }
}
