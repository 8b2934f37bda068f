import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import cockpit from './eslint-rules/layers.js';
import server from './eslint-rules/server-layers.js';

const honoVar = {
  selector: "MemberExpression[object.name='c'][property.name='var']",
  message: "Read a context variable with c.get('name'): Hono's c.var builds a new object of all of them on every read.",
};

/**
 * An Intl formatter made inside a function is made on every call: slow, and each holds ICU memory
 * outside the JavaScript heap until collected (one per call in `berlinDate` piled up ~50 MB in a zip
 * of 500 bills, ARCHITECTURE.md). Make it once at module level, or keep it in a cache (an assignment).
 */
const intlPerCall = [
  {
    selector:
      ":function NewExpression[callee.object.name='Intl'][callee.property.name=/^(DateTimeFormat|NumberFormat|Collator|PluralRules|RelativeTimeFormat|ListFormat|Segmenter|DisplayNames)$/]:not(AssignmentExpression > NewExpression)",
    message: 'Make an Intl formatter once (module level or a cache), not on every call: each holds ICU memory outside the heap.',
  },
  {
    selector: ':function CallExpression[callee.property.name=/^toLocale(Date|Time)?String$/][arguments.length>0]',
    message: 'toLocale…String with arguments makes an Intl formatter on every call; use one made once (module level or a cache).',
  },
];

export default tseslint.config(
  {
    ignores: [
      'dist',
      '.tmp',
      'node_modules',
      'data',
      'src/route-tree.gen.ts',
      'server/src/db/migrations',
      'test-results',
      'playwright-report',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { files: ['public/**/*.js'], languageOptions: { globals: globals.browser, sourceType: 'script' } },
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks, cockpit },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'cockpit/layers': 'error',
      'cockpit/no-cycle': 'error',
      'cockpit/kebab-case-files': 'error',
      'cockpit/api-holds-data': 'error',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^zod(/(?!mini$).*)?$',
              message: "zod only as 'zod/mini' (ARCHITECTURE.md, Forms): classic zod puts ~16 KB and its messages on the first route.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', honoVar],
    },
  },
  {
    files: ['server/**/*.ts'],
    ignores: ['**/*.test.ts', 'server/src/test/**'],
    rules: {
      'no-restricted-syntax': ['error', honoVar, ...intlPerCall],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'contract/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-syntax': ['error', ...intlPerCall] },
  },
  {
    // The server's import direction (eslint-rules/server-layers.js) and function size; tests may import anything and run long.
    files: ['server/**/*.ts'],
    ignores: ['**/*.test.ts', 'server/src/test/**'],
    plugins: { server },
    rules: { 'server/layers': 'error' },
  },
  {
    // Every production function under 150 lines (ARCHITECTURE.md, Habits); tests may run long.
    files: ['src/**/*.{ts,tsx}', 'server/**/*.ts', 'contract/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}', 'server/src/test/**', 'src/test-setup.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 150, skipBlankLines: true, skipComments: true }] },
  },
);
