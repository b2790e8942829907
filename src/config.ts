// Every setting the service reads from the environment, validated once at start-up.
import path from "node:path";
import { z } from "zod";

const tierLimit = z.coerce.number().int().positive();

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  DATABASE_URL: z.string().url().optional(),
  // The default is data/pglite in the project folder, wherever a command runs from (`cd src && npx prs …` uses the
  // same database as `npm start`); a relative path given here is relative to the working directory, as usual.
  PGLITE_DATA_DIR: z.string().default(path.resolve(__dirname, "..", "data", "pglite")),
  // A PGlite dump to start an empty database from (the test suite uses it to skip initdb per test file).
  PGLITE_TEMPLATE: z.string().optional(),
  REDIS_URL: z.string().url().optional(),
  // Namespace of the rate-limit counters in Redis: processes sharing one budget must share it; separate
  // deployments (or test runs) on one Redis use different ones.
  REDIS_KEY_PREFIX: z.string().default("prs:rl"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  RATE_LIMIT_FREE: tierLimit.default(100),
  RATE_LIMIT_STANDARD: tierLimit.default(1000),
  RATE_LIMIT_PRO: tierLimit.default(5000),
  RATE_LIMIT_ENTERPRISE: tierLimit.default(20000),
  RATE_LIMIT_ANONYMOUS: tierLimit.default(60),
  USAGE_FLUSH_MS: z.coerce.number().int().positive().default(2000),
  DATABASE_POOL_SIZE: z.coerce.number().int().positive().default(10),
  // Time budget of one database statement (PostgreSQL statement_timeout; lock waits included): past it the
  // statement is cancelled and the request answers 504. PGlite cannot cancel a running statement (see open.ts).
  DB_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  // Graceful stop: how long requests in flight may take to finish after SIGTERM/SIGINT.
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  // Express "trust proxy" (behind a load balancer): true, a hop count, or addresses/subnets such as "loopback".
  // Decides the client address that anonymous rate limits count by.
  TRUST_PROXY: z
    .string()
    .default("false")
    .transform((v) => (v === "true" ? true : v === "false" ? false : /^\d+$/.test(v) ? Number(v) : v)),
  // Origins browser apps may call the API from (CORS): "*" (any; the default: keys are bearer tokens, never cookies)
  // or a comma-separated list such as "https://app.example.com,http://localhost:5173".
  CORS_ORIGINS: z
    .string()
    .default("*")
    .transform((v): "*" | string[] => (v.trim() === "*" ? "*" : v.split(",").map((o) => o.trim()).filter(Boolean))),
  // Emit an event per SQL statement (tests and benchmarks count them); off in normal operation.
  SQL_STATEMENT_EVENTS: z.stringbool().default(false),
});

export type Config = z.infer<typeof envSchema>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== "")));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid configuration: ${problems}`);
  }
  return parsed.data;
}

export const config = loadConfig();
