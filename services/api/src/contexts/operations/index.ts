import { BulkBatchTables1770200009000 } from './infrastructure/operations.migrations';

export { OperationsModule } from './operations.module';
export { BulkBatchRunner } from './application/bulk-batch-runner';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const operationsMigrations: Function[] = [BulkBatchTables1770200009000];
