// ESLint flat config: JavaScript and TypeScript everywhere, Svelte components of the web desktop.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import svelteConfig from './web/svelte.config.js';

// Every folder of web/src/apps is one app; what two apps share lives in web/src/lib (read from disk, so a new app is covered).
const webApps = readdirSync(new URL('./web/src/apps/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** No app imports from another app's folder: the folder names are unique under web/src, so a path naming one is a crossing. */
const noCrossAppImports = webApps.map((app) => ({
  files: [`web/src/apps/${app}/**/*.{ts,svelte}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: webApps
          .filter((other) => other !== app)
          .map((other) => ({
            regex: `(^|/)apps/${other}/|^(\\.\\./)+${other}/`,
            message: `Apps do not import from each other: move what ${app} and ${other} share into web/src/lib.`,
          })),
      },
    ],
  },
}));

export default defineConfig(
  {
    ignores: [
      '**/node_modules/',
      'daemon/public/',
      'daemon/dist/',
      'var/',
      'test/artifacts/',
      'web/dist/',
      'console/dist/',
      'dist/',
      'coverage/',
      'test/api/generated-client/schema.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    rules: {
      // `any` only with an eslint-disable comment that says why.
      '@typescript-eslint/no-explicit-any': 'error',
      // Unused arguments keep their place in a signature when prefixed with `_`; `{ omitted, ...rest }` drops a key.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Code that runs in the browser: the web desktop, the console's pages, the API docs page script and the example apps' frontends.
    files: ['web/**/*.{js,ts,svelte}', 'console/src/renderer/**/*.{ts,svelte}', 'daemon/src/http/openapi/assets/**/*.js', 'examples/*/frontend/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['**/*.test.ts', 'test/**/*.ts'],
    languageOptions: { globals: { ...globals.node, ...globals.mocha } },
    // chai's property assertions (`expect(x).to.be.empty`) are expressions by design.
    rules: { '@typescript-eslint/no-unused-expressions': 'off' },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts', '**/*.svelte.js'],
    languageOptions: {
      parserOptions: {
        extraFileExtensions: ['.svelte'],
        parser: tseslint.parser,
        svelteConfig,
      },
    },
    rules: {
      // Our stores keep private, non-rendered indexes in plain Maps and Sets, and replace whole
      // collections held in $state.raw; the rule cannot tell those from a missed reactive one.
      'svelte/prefer-svelte-reactivity': 'off',
    },
  },
  ...noCrossAppImports,
);
