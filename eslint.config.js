// ESLint: typescript-eslint's recommended rules, and the project's layering (eslint/layers.js) as an error.
import tseslint from 'typescript-eslint';
import casts, { EXEMPT as CAST_EXEMPT } from './eslint/casts.js';
import layers from './eslint/layers.js';

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'test-results/**', 'playwright-report/**', 'node_modules/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { nexus: { rules: { layers, casts } } },
    rules: {
      'nexus/layers': 'error',
      'nexus/casts': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true, caughtErrors: 'none' }],
    },
  },
  // One errorMessage() (shared/errors.ts) and one logger (electron/log.ts): no local copies, no console.* in the
  // kernel's process. The CLI and the hook write to their own streams; scripts, tests and benches print freely.
  {
    files: ['electron/**/*.ts', 'shared/**/*.ts', 'renderer/**/*.{ts,tsx}'],
    ignores: ['electron/cli/**', 'electron/external/hook/**', 'electron/external/connect/**', '**/*.test.{ts,tsx}'],
    rules: {
      'no-console': 'error',
      'no-restricted-syntax': [
        'error',
        {
          selector: "ConditionalExpression[test.operator='instanceof'][test.right.name='Error'][consequent.property.name='message']",
          message: 'Use errorMessage() from shared/errors.ts: one way to read what was thrown.',
        },
      ],
    },
  },
  // CommonJS files (electron-builder hooks, the packaged CLI shim) load with require().
  { files: ['**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
  // Test support and tests may reach across layers to set up what they test.
  { files: ['**/*.test.{ts,tsx}', 'test/**', 'e2e/**', 'bench/**'], rules: { 'nexus/layers': 'off' } },
  { files: CAST_EXEMPT, rules: { 'nexus/casts': 'off' } },
);
