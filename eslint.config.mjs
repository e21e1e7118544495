import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', '.kupa/**', 'test/artifacts/**', '**/*.d.ts', '**/routeTree.gen.ts'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      'no-console': 'off',
    },
  },
  {
    files: ['services/api/**/*.ts'],
    rules: {
      // Nest resolves constructor parameters by their runtime class, so type-only imports would break injection.
      '@typescript-eslint/consistent-type-imports': 'off',
    },
  },
  {
    files: ['services/api/src/contexts/*/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['@nestjs/*', 'typeorm', 'pg'] }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: 'Domain code gets time from its command.',
        },
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'Domain code gets time from its command.',
        },
      ],
    },
  },
  {
    files: ['admin-ui/**/*.{ts,tsx}', 'client-ui/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    // The UIs' test files share one module graph per Vitest worker (docs/adr/0142): a module mocked for a whole file
    // (vi.mock is hoisted and cannot be undone) would stay mocked for the files after it; vi.doMock is undone in place.
    files: ['admin-ui/src/**/*.test.{ts,tsx}', 'client-ui/src/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'vi',
          property: 'mock',
          message:
            'UI test files share modules (ADR 0142): pass a fake in instead, or vi.doMock it and undo it in a finally.',
        },
      ],
    },
  },
  {
    files: ['**/*.{js,cjs}'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
