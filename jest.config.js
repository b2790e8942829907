/** Jest: TypeScript through ts-jest (transpile only; `npm test` type-checks with tsc first). */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.ts$": ["ts-jest", { diagnostics: false }] },
  // The generated Prisma client imports its siblings as ./x.js (TypeScript's NodeNext style).
  moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
  globalSetup: "<rootDir>/test/support/global-setup.ts",
  setupFiles: ["<rootDir>/test/support/env.ts"],
  testTimeout: 60000,
  maxWorkers: 2,
  // jest-runtime with V8's code cache for the modules it compiles (test/support/runtime.js).
  runtime: "<rootDir>/test/support/runtime.js",
};
