/**
 * The import boundaries of docs/CODE_STYLE.md (Layout), checked by dependency-cruiser on every `npm run lint`
 * (ADR 0013). Paths are relative to the folder depcruise runs in: the repository root, or the fixture tree that
 * scripts/check-boundaries-fixture.mjs checks to prove each rule still bites.
 *
 * `@kupa/proto` resolves to its build (`proto/dist`), so "proto" below means the package whatever its entry.
 */
const API = '^services/api/src/';
const CONTEXTS = `${API}contexts/`;
const CONTEXT_INDEX = `${CONTEXTS}[^/]+/index\\.ts$`;
const KERNEL = `${API}kernel/`;
const PROTO = '^proto/';
/** The one file of the API that its package.json exports to the repository's other suites (`@kupa/api/testing`). */
const API_PUBLIC_ENTRY = `${API}testing\\.ts$`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'context-through-index',
      comment:
        "A context reaches another context only through that context's index.ts, so that its folders stay its own " +
        'to rearrange. Export what you need from the index (and ask whether the other context should own it).',
      severity: 'error',
      from: { path: `${CONTEXTS}([^/]+)/` },
      to: { path: CONTEXTS, pathNot: [`${CONTEXTS}$1/`, CONTEXT_INDEX] },
    },
    {
      name: 'app-through-index',
      comment:
        'The app module, schema.ts, the CLI and the test support reach a context only through its index.ts, like ' +
        'another context would.',
      severity: 'error',
      from: { path: API, pathNot: [CONTEXTS, API_PUBLIC_ENTRY] },
      to: { path: CONTEXTS, pathNot: CONTEXT_INDEX },
    },
    {
      name: 'public-entry-through-index-or-domain',
      comment:
        "The API's public entry for the other suites reaches a context through its index.ts or its pure domain/ " +
        '(the bench seeds with the real deciders without loading Nest and TypeORM).',
      severity: 'error',
      from: { path: API_PUBLIC_ENTRY },
      to: { path: CONTEXTS, pathNot: [CONTEXT_INDEX, `${CONTEXTS}[^/]+/domain/`] },
    },
    {
      name: 'domain-is-pure',
      comment:
        'domain/ is pure TypeScript: it imports @kupa/proto, the kernel and its own domain folder, nothing else ' +
        '(no framework, no database, no platform, no Node built-ins). Its specs may use the test support.',
      severity: 'error',
      from: { path: `${CONTEXTS}([^/]+)/domain/`, pathNot: '\\.spec\\.ts$' },
      to: { pathNot: [`${CONTEXTS}$1/domain/`, KERNEL, PROTO] },
    },
    {
      name: 'infrastructure-is-adapters',
      comment:
        "infrastructure/ holds a context's adapters (SQL, HTTP clients and answers, migrations): use cases and flows " +
        'call them, never the other way round. A rule belongs in domain/, a multi-step flow in application/ (ADR 0072).',
      severity: 'error',
      from: { path: `${CONTEXTS}([^/]+)/infrastructure/` },
      to: { path: `${CONTEXTS}$1/(commands|application)/` },
    },
    {
      name: 'platform-knows-no-context',
      comment:
        'platform/ holds what has no business rules: it never imports a context. A context plugs into it by ' +
        'registering (projections, event types, audit mappers) or by providing a port the platform declares.',
      severity: 'error',
      from: { path: `${API}platform/` },
      to: { path: CONTEXTS },
    },
    {
      name: 'kernel-is-pure',
      comment: 'The kernel, which every domain folder may import, imports only @kupa/proto and itself.',
      severity: 'error',
      from: { path: KERNEL },
      to: { pathNot: [KERNEL, PROTO] },
    },
    {
      name: 'admin-ui-alone',
      comment: 'The staff console talks to the API over HTTP and shares only @kupa/proto: no API code, no client-ui.',
      severity: 'error',
      from: { path: '^admin-ui/src/' },
      to: { path: '^(services|client-ui)/' },
    },
    {
      name: 'client-ui-alone',
      comment: 'The client portal talks to the API over HTTP and shares only @kupa/proto: no API code, no admin-ui.',
      severity: 'error',
      from: { path: '^client-ui/src/' },
      to: { path: '^(services|admin-ui)/' },
    },
    {
      name: 'client-ui-subscriptions-not-packages',
      comment:
        "The client portal's features import each other one way at most: buying a package (features/packages) " +
        'opens a subscription and uses its credentials dialog, errors and list, so features/subscriptions never ' +
        'imports features/packages. What both need about packages (price, pay options, the plans query) lives in ' +
        'lib/plans.',
      severity: 'error',
      from: { path: '^client-ui/src/features/subscriptions/' },
      to: { path: '^client-ui/src/features/packages/' },
    },
    {
      name: 'client-ui-lib-below-features',
      comment:
        "The client portal's lib/ is what features share (API client, i18n, UI pieces, plans): it imports no " +
        'feature, so that moving a shared piece there cannot bring a feature-to-feature import back.',
      severity: 'error',
      from: { path: '^client-ui/src/lib/' },
      to: { path: '^client-ui/src/features/' },
    },
    {
      name: 'test-uses-public-api',
      comment:
        'The journeys and the bench drive the API from outside: they import only what @kupa/api exports ' +
        '(`@kupa/api/testing`), never a file inside services/api/src.',
      severity: 'error',
      from: { path: '^test/' },
      to: { path: API, pathNot: API_PUBLIC_ENTRY },
    },
    {
      name: 'test-through-package-name',
      comment: "The test suites reach the API's public entry by its package name, not by a relative path.",
      severity: 'error',
      from: { path: '^test/' },
      to: { path: '^services/', dependencyTypes: ['local'] },
    },
    {
      name: 'no-circular',
      comment: 'No import cycles inside the API: a cycle makes module load order matter and hides a missing boundary.',
      severity: 'error',
      from: { path: API },
      to: { circular: true },
    },
    {
      name: 'proto-no-circular',
      comment:
        'No import cycles inside proto/src either: its files are imported one by one by the API and both UIs, and a ' +
        'cycle there (label tables → event texts → event catalogue → the events that use the tables) makes what ' +
        'a file sees at load time depend on who imported first. A small type several files need gets its own module.',
      severity: 'error',
      from: { path: '^proto/src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules', `${PROTO}dist/`] },
    exclude: { path: ['^test/boundaries-fixture/', '/dist/'] },
    // Type-only imports count: a boundary crossed for a type is still crossed.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
