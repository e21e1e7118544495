import {
  CatalogSchema1767600000400,
  PlanCardPayment1768100000400,
  PlanEnglishTexts1769900000400,
} from './infrastructure/catalog.migrations';

export { CatalogModule } from './catalog.module';
export { planForSale } from './domain/plan.decider';
export type { PlanState } from './domain/plan.state';
export { PlanReferences } from './application/plan-references.port';
export { planStreams } from './infrastructure/plan-streams';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const catalogMigrations: Function[] = [
  CatalogSchema1767600000400,
  PlanCardPayment1768100000400,
  PlanEnglishTexts1769900000400,
];

/** The embedded demo's catalogue goes through the same command as staff's (docs/adr/0075-demo-catalogue-and-bilingual-packages.md). */
export { CreatePlanCommand } from './commands/create-plan/create-plan.command';
