import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * src/server's folders, bottom to top: a folder imports only folders below it (src/contract lies
 * under them all; entries holds the Apps Script globals, and main.ts at src/server's root lists them). `npm run imports` prints the graph.
 */
export const SERVER_LAYERS = [
  'platform',
  'api',
  'auth',
  'sheets',
  'state',
  'finance',
  'functions',
  'sync',
  'bigquery',
  'sidebar',
  'entries',
];
const ROOT_ENTRY_FILES = ['main', 'sidebar-api-check'];

function layerRule(layer) {
  const above = SERVER_LAYERS.slice(SERVER_LAYERS.indexOf(layer) + 1);
  const below = ['contract', ...SERVER_LAYERS.slice(0, SERVER_LAYERS.indexOf(layer))];
  return {
    files: [`src/server/${layer}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./)+(${[...above, ...ROOT_ENTRY_FILES].join('|')})(/|$)`,
              message: `Layer rule "${layer}": it may import only ${below.join(', ')} (layers, bottom to top: contract, ${SERVER_LAYERS.join(', ')}, entry files). Move what both need down a layer.`,
            },
          ],
        },
      ],
    },
  };
}

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
  ...SERVER_LAYERS.map(layerRule),
  {
    files: ['src/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(server|sidebar)(/|$)',
              message:
                'Layer rule "contract": the contract shared by the sidebar and the server imports neither of them.',
            },
          ],
        },
      ],
    },
  },
);
