import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'data/',
      'coverage/',
      'bench/out/',
      '.tmp/',
      'packages/client/src/generated/',
      'packages/client/dist/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { files: ['**/*.js', '**/*.mjs', '**/*.cjs'], languageOptions: { globals: { ...globals.node } } },
  // The console's browser code: the DOM's globals, and no Node.
  { files: ['src/console/browser/**/*.ts'], languageOptions: { globals: { ...globals.browser } } },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportDefaultDeclaration', message: 'Named exports only (DESIGN.md conventions).' },
      ],
    },
  },
  // Tool configuration files are loaded by their tools through a default export.
  { files: ['*.config.js', '*.config.ts'], rules: { 'no-restricted-syntax': 'off' } },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/config/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Only src/config reads the environment (DESIGN.md).' },
      ],
    },
  },
);
