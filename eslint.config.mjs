import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'out/**', 'src/server/api/generated/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['src/server/**/*.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        'URL',
        'URLSearchParams',
        'TextEncoder',
        'TextDecoder',
        'setTimeout',
        'setInterval',
        'fetch',
        'atob',
        'btoa',
        'crypto',
        'process',
        'Buffer',
        'structuredClone',
      ],
    },
  },
);
