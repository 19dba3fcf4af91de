// Lint: a few rules that catch real mistakes, plus size warnings (a function over ~60 lines or
// with many branches is usually two). Formatting is prettier's job, not eslint's.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  { ignores: ['**/node_modules/**', 'bench/results/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly' } },
    rules: {
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      'max-lines-per-function': ['warn', { max: 60, skipBlankLines: true, skipComments: true }],
      complexity: ['warn', 15],
      // Route<any> and RequestContext<any> are how the HTTP layer holds routes of any locals, and
      // tests read JSON bodies as any; strict TypeScript covers the rest.
      '@typescript-eslint/no-explicit-any': 'off',
      // The HTTP layer refuses NUL and other control characters with regular expressions on purpose.
      'no-control-regex': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    files: ['**/*.test.ts', '**/testing/**', '**/test/**', 'bench/**'],
    rules: { 'max-lines-per-function': 'off', complexity: 'off' },
  },
);
