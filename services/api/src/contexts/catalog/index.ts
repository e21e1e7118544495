import { CatalogSchema1767600000400 } from './infrastructure/catalog.migrations';

export { CatalogModule } from './catalog.module';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const catalogMigrations: Function[] = [CatalogSchema1767600000400];
