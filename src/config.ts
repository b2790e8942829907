// Every setting the service reads from the environment, validated once at start-up.
import { availableParallelism } from "node:os";
import path from "node:path";
import { z } from "zod";
import { parseDataKey } from "./attendees/crypto";

const tierLimit = z.coerce.number().int().positive();

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  DATABASE_URL: z.string().url().optional(),
  // PostgreSQL itself, not a pooler in front of it, for the migrations (default: DATABASE_URL; unused without it).
  DATABASE_DIRECT_URL: z.string().url().optional(),
  // Prepare the hot paths' statements once per connection (README "Behind a connection pooler"). Unset: named until
  // the database refuses one (a transaction pooler such as PgBouncer), unnamed from the start with ?pgbouncer=true in
  // DATABASE_URL; true/false force either ("auto" is the same as unset).
  DATABASE_PREPARED_STATEMENTS: z.union([z.literal("auto").transform(() => undefined), z.stringbool()]).optional(),
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
  // `auto`: readable lines when standard output is a terminal, JSON lines otherwise (a file, a pipe, a log shipper).
  LOG_FORMAT: z.enum(["auto", "json", "pretty"]).default("auto"),
  RATE_LIMIT_FREE: tierLimit.default(100),
  RATE_LIMIT_STANDARD: tierLimit.default(1000),
  RATE_LIMIT_PRO: tierLimit.default(5000),
  RATE_LIMIT_ENTERPRISE: tierLimit.default(20000),
  RATE_LIMIT_ANONYMOUS: tierLimit.default(60),
  // Active (not revoked, not expired) API keys a team may hold; creating one more answers 400 "Key limit reached".
  MAX_KEYS_PER_TEAM: z.coerce.number().int().positive().default(100),
  // Webhook endpoints a team may hold; creating one more answers 400 "Webhook limit reached".
  MAX_WEBHOOKS_PER_TEAM: z.coerce.number().int().positive().default(20),
  // Live streams (GraphQL subscriptions) one process holds open, whatever their transport; one more answers 429
  // (src/live/streams.ts; a key holds at most 20 and a team 100 across processes).
  MAX_STREAMS_PER_PROCESS: z.coerce.number().int().positive().default(1000),
  // Days an audit-log entry is kept (src/audit/retention.ts deletes older ones in bulk).
  AUDIT_RETENTION_DAYS: z.coerce.number().int().positive().max(36_500).default(365),
  // Server processes on this machine (src/cluster.ts): 1 serves in this process; more fork that many workers behind
  // one port, which needs PostgreSQL and Redis (shared by processes as by machines). "auto": one per core.
  WEB_CONCURRENCY: z
    .string()
    .default("1")
    .transform((v) => (v.trim() === "auto" ? availableParallelism() : Number(v)))
    .pipe(z.number({ error: 'must be a whole number of processes or "auto"' }).int().min(1).max(64)),
  USAGE_FLUSH_MS: z.coerce.number().int().positive().default(2000),
  // PostgreSQL connections per process. Four: one Node process keeps at most about a core busy and its reads take
  // a fraction of a millisecond of the database each, so a few connections keep it fed; more only put more backends
  // on the database's cores at once (10 spent 15-40 % more database CPU per REST detail than 4, BENCHMARKS.md
  // "Database CPU per request"). Raise it for long statements (exports, imports) running beside the reads.
  DATABASE_POOL_SIZE: z.coerce.number().int().positive().default(4),
  // Time budget of one database statement (lock waits included): past it the client cancels the statement and the
  // request answers 504. PGlite cannot cancel a running statement (see db/open.ts).
  DB_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  // Streaming replicas of the PostgreSQL primary, comma-separated postgresql:// URLs: a team's reads go to one that has
  // replayed the team's last write and lags less than DATABASE_REPLICA_MAX_LAG_MS (README "Read replicas").
  DATABASE_REPLICA_URLS: z
    .string()
    .transform((v) => v.split(",").map((u) => u.trim()).filter(Boolean))
    .pipe(z.array(z.string().url({ error: "each must be a postgresql:// URL" })))
    .default([]),
  DATABASE_REPLICA_MAX_LAG_MS: z.coerce.number().int().positive().default(1000),
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
  // AI-generated summaries (docs/api.md "AI-generated summaries"; README "AI summaries"): the offline template
  // (default) or any OpenAI-compatible Chat Completions endpoint.
  AI_PROVIDER: z.enum(["template", "openai"]).default("template"),
  // The endpoint's base URL, e.g. http://127.0.0.1:11434/v1 (Ollama) or http://127.0.0.1:8080/v1 (llama.cpp);
  // unset: the OpenAI API.
  AI_BASE_URL: z.string().url().optional(),
  AI_API_KEY: z.string().optional(),
  AI_MODEL: z.string().default("gpt-4o-mini"),
  // Time allowed for one attempt; up to 2 retries follow on 429, 5xx and timeouts.
  AI_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  // warn: flagged phrases only add warnings; block: flagged text is refused (422) instead of saved.
  AI_FAIR_HOUSING: z.enum(["warn", "block"]).default("warn"),
  // Webhooks (docs/api.md "Webhooks"; README "Webhooks"). Seconds to wait before each retry of a failed delivery.
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .default("5,300,1800,7200,18000,36000,36000")
    .transform((v) => v.split(",").map((s) => (/^\s*\d+\s*$/.test(s) ? Number(s) : NaN)))
    .pipe(z.array(z.number({ error: "must be comma-separated whole seconds" }).int().max(7 * 86400)).max(20)),
  // Allow endpoints on loopback, private, link-local and other non-public addresses (local development, tests).
  WEBHOOK_ALLOW_PRIVATE_URLS: z.stringbool().default(false),
  // Follow Up Boss's API, where a team's Follow Up Boss CRM destination sends its leads (docs/api.md "CRM destinations").
  FOLLOW_UP_BOSS_URL: z.url({ protocol: /^https?$/ }).default("https://api.followupboss.com"),
  // Time allowed for one delivery attempt.
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  // Deliveries one process sends at once (at most 2 to any one endpoint; 0: none, an API-only process), and how often
  // it looks for due ones.
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(0).max(100).default(8),
  WEBHOOK_POLL_MS: z.coerce.number().int().min(10).default(1000),
  // Largest answer of one request, GraphQL or REST, in bytes (docs/api.md "GraphQL limits"): a request whose estimate
  // passes it is refused before it runs, an answer growing past it while built is stopped (REST 413).
  MAX_RESPONSE_BYTES: z.coerce.number().int().min(1024).default(8 * 1024 * 1024),
  // Attendee contact data encrypted at rest (docs/data-protection.md): the current key, 32 bytes in base64 (for example
  // `openssl rand -base64 32`); unset, the embedded database keeps a generated one in its data directory, and
  // PostgreSQL warns (refuses to start under NODE_ENV=production).
  DATA_ENCRYPTION_KEY: z
    .string()
    .refine((v) => parseDataKey(v) !== null, { error: "must be 32 bytes in base64 (openssl rand -base64 32)" })
    .optional(),
  // Old keys still readable while `prs keys rotate-data-key` re-encrypts: comma-separated, base64 (each found by the
  // key id stored with every value).
  DATA_ENCRYPTION_KEYS: z
    .string()
    .refine((v) => v.split(",").map((s) => s.trim()).filter(Boolean).every((s) => parseDataKey(s.includes(":") ? s.slice(s.indexOf(":") + 1) : s) !== null), {
      error: "must be comma-separated keys of 32 bytes in base64",
    })
    .optional(),
  // Emit an event per SQL statement (tests and benchmarks count them); off in normal operation.
  SQL_STATEMENT_EVENTS: z.stringbool().default(false),
  // Prometheus metrics at /metrics (src/observability/metrics.ts), off unless one of these says where: a port of
  // their own (on METRICS_HOST, loopback by default), or the main port for requests bearing METRICS_TOKEN.
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().default("127.0.0.1"),
  METRICS_TOKEN: z.string().min(16, { error: "must be at least 16 characters" }).optional(),
});

export type Config = z.infer<typeof envSchema>;

/** Every variable the service reads (`.env.example` lists each with its default; a unit test keeps them in step). */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape);

/** Settings that are valid one by one but not together. */
function combined(c: Config): string[] {
  const problems: string[] = [];
  if (c.AI_PROVIDER === "openai" && !c.AI_BASE_URL && !c.AI_API_KEY)
    problems.push("AI_API_KEY: required when AI_PROVIDER=openai calls the OpenAI API (set AI_BASE_URL for a local server without a key)");
  if (c.WEB_CONCURRENCY > 1 && (!c.DATABASE_URL || !c.REDIS_URL))
    problems.push("WEB_CONCURRENCY: several processes need DATABASE_URL (PostgreSQL; the embedded database serves one process) and REDIS_URL (one rate-limit budget for all of them)");
  if (c.DATABASE_REPLICA_URLS.length && !c.DATABASE_URL)
    problems.push("DATABASE_REPLICA_URLS: replicas need DATABASE_URL (the PostgreSQL primary they stream from)");
  return problems;
}

/** A setting the service cannot start with; its message names the setting and the value it was given. */
export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== "")));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => {
      const name = String(i.path[0] ?? "");
      const given = name in env ? ` (got ${JSON.stringify(env[name])})` : "";
      return `${i.path.join(".")}: ${i.message}${given}`;
    });
    throw new ConfigError(`Invalid configuration: ${problems.join("; ")}`);
  }
  const problems = combined(parsed.data);
  if (parsed.data.DATABASE_URL && !parsed.data.DATA_ENCRYPTION_KEY && env.NODE_ENV === "production")
    problems.push("DATA_ENCRYPTION_KEY: required with DATABASE_URL when NODE_ENV=production (32 bytes in base64; attendee contact data is encrypted with it)");
  if (problems.length) throw new ConfigError(`Invalid configuration: ${problems.join("; ")}`);
  return parsed.data;
}

/**
 * The process's configuration. A process started with a setting it cannot use says so in one line naming the
 * setting and exits with status 1: a stack trace would only hide the line that matters.
 */
export const config = ((): Config => {
  try {
    return loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
})();
