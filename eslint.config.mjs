import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', 'bench/results/**', 'client/schema.d.ts'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        URL: 'readonly',
        URLSearchParams: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        performance: 'readonly',
        queueMicrotask: 'readonly',
        structuredClone: 'readonly',
        SharedArrayBuffer: 'readonly',
        Atomics: 'readonly',
        WebAssembly: 'readonly',
        fetch: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-require-imports': 'off',
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration from src/config only.' },
      ],
    },
  },
  // The operator console runs in the browser (and its Vite config in the build): the service's
  // configuration rule does not apply there.
  {
    files: ['console/**/*.{ts,tsx,mts}'],
    rules: { 'no-restricted-properties': 'off' },
  },
  // Layering (docs/architecture.md): src/ is plumbing; only the composition root (src/boot) may
  // import the domains, and domains name the composition root's Services by type only.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/boot/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+actors(/|$)',
              message: 'src/ is plumbing: only src/boot (the composition root) imports actors/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['actors/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+src/boot(/|$)',
              allowTypeImports: true,
              message:
                'Domains receive the services from src/boot; they may name its types only (import type).',
            },
          ],
        },
      ],
    },
  },
  // Skill capabilities run in the sandbox as scripts (docs/skills.md, "Capability code"): each file
  // defines `run` or `library` for the runner to call, with the globals the runner defines.
  {
    files: ['actors/skills/catalog/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: { lib: 'readonly', deps: 'readonly', platform: 'readonly', stdin: 'readonly' },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { varsIgnorePattern: '^(run|library|_.*)$', argsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    files: ['src/config/**', 'test/**', 'bench/**', 'scripts/**', 'jest.config.js'],
    rules: { 'no-restricted-properties': 'off' },
  },
);
