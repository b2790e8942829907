/** Jest: TypeScript through ts-jest (transpile only; `npm test` type-checks with tsc first). */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.ts$": ["ts-jest", { diagnostics: false }] },
  globalSetup: "<rootDir>/test/support/global-setup.ts",
  setupFiles: ["<rootDir>/test/support/env.ts"],
  testTimeout: 60000,
  maxWorkers: 2,
};
