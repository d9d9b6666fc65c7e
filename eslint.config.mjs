// Lint for the whole tree (`make lint`, run by CI before the tests). The rules are the hazards
// STYLE.md names: promises left floating or handed where a callback's result is ignored, switches
// that miss a case of a union, value imports used only as types, import cycles, deep imports
// across packages, imports against the folder layers (eslint.layers.mjs). Formatting is Prettier's (`make format`), checked here by `prettier --check`.
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
import { layerZones } from './eslint.layers.mjs';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'packages/proto/src/generated/**',
      'packages/api/src/generated/**',
      '.run/**',
      'coverage/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX },
    settings: {
      // The sources import each other as `./x.js`; the TypeScript resolver finds the `.ts`.
      'import-x/resolver': { typescript: true, node: true },
      // no-cycle reads the imported files too; they are TypeScript.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/extensions': ['.ts', '.js', '.mjs'],
    },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          // node:test's test() and describe() return promises the runner itself awaits.
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/explicit-module-boundary-types': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      'import-x/no-cycle': 'error',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@orch/*/src/*', '@orch/*/dist/*'],
              message: 'Import a package through its public subpath exports, not its files.',
            },
          ],
        },
      ],
    },
  },
  {
    // Folders as layers, for production code: a test may reach across them to set things up.
    files: ['**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { basePath: import.meta.dirname, zones: layerZones() },
      ],
    },
  },
  {
    // Tests walk decoded JSON answers; `any` there reads better than a cast at every step.
    files: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/explicit-module-boundary-types': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
      },
    },
  }
);
