/** Jest runs the TypeScript sources directly through SWC; `npm run typecheck` checks the types. */
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testTimeout: 30000,
  // Suites that start servers or talk to RabbitMQ share a machine with 2 cores: keep parallelism modest.
  maxWorkers: 2,
  setupFiles: ['<rootDir>/test/setup-env.js'],
  globalSetup: '<rootDir>/test/support/global-setup.js',
};
