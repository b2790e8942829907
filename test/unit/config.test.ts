// The service's configuration from the environment: defaults, coercion, and a refusal naming every bad setting.
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { CONFIG_VARIABLES, loadConfig } from "../../src/config";

describe("loadConfig", () => {
  it("reads CORS_ORIGINS as any origin or a list", () => {
    expect(loadConfig({ CORS_ORIGINS: " * " }).CORS_ORIGINS).toBe("*");
    expect(loadConfig({ CORS_ORIGINS: "https://app.example.com, http://localhost:5173," }).CORS_ORIGINS).toEqual(["https://app.example.com", "http://localhost:5173"]);
  });

  it("has a default for every setting", () => {
    expect(loadConfig({})).toEqual({
      PORT: 3000,
      HOST: "0.0.0.0",
      PGLITE_DATA_DIR: path.resolve(__dirname, "../../data/pglite"), // the project's, from any working directory
      REDIS_KEY_PREFIX: "prs:rl",
      CORS_ORIGINS: "*",
      LOG_LEVEL: "info",
      LOG_FORMAT: "auto",
      RATE_LIMIT_FREE: 100,
      RATE_LIMIT_STANDARD: 1000,
      RATE_LIMIT_PRO: 5000,
      RATE_LIMIT_ENTERPRISE: 20000,
      RATE_LIMIT_ANONYMOUS: 60,
      MAX_KEYS_PER_TEAM: 100,
      MAX_STREAMS_PER_PROCESS: 1000,
      MAX_RESPONSE_BYTES: 8 * 1024 * 1024,
      MAX_WEBHOOKS_PER_TEAM: 20,
      AUDIT_RETENTION_DAYS: 365,
      USAGE_FLUSH_MS: 2000,
      DATABASE_POOL_SIZE: 4,
      DATABASE_REPLICA_URLS: [],
      DATABASE_REPLICA_MAX_LAG_MS: 1000,
      DB_TIMEOUT_MS: 10000,
      FOLLOW_UP_BOSS_URL: "https://api.followupboss.com",
      SHUTDOWN_TIMEOUT_MS: 10000,
      TRUST_PROXY: false,
      SQL_STATEMENT_EVENTS: false,
      METRICS_HOST: "127.0.0.1",
      AI_PROVIDER: "template",
      AI_MODEL: "gpt-4o-mini",
      AI_TIMEOUT_MS: 30000,
      AI_FAIR_HOUSING: "warn",
      WEBHOOK_RETRY_SCHEDULE: [5, 300, 1800, 7200, 18000, 36000, 36000],
      WEBHOOK_ALLOW_PRIVATE_URLS: false,
      WEBHOOK_TIMEOUT_MS: 15000,
      WEBHOOK_CONCURRENCY: 8,
      WEBHOOK_POLL_MS: 1000,
      WEB_CONCURRENCY: 1,
    });
  });

  it("reads the webhook retry schedule as whole seconds", () => {
    expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE: "1, 2,3" }).WEBHOOK_RETRY_SCHEDULE).toEqual([1, 2, 3]);
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: "5,soon" })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    expect(loadConfig({ WEBHOOK_CONCURRENCY: "0" }).WEBHOOK_CONCURRENCY).toBe(0); // an API-only process
  });

  it("needs a key for the OpenAI API itself, not for a local OpenAI-compatible server", () => {
    expect(() => loadConfig({ AI_PROVIDER: "openai" })).toThrow(/^Invalid configuration: AI_API_KEY: required when AI_PROVIDER=openai/);
    expect(loadConfig({ AI_PROVIDER: "openai", AI_API_KEY: "sk-x" }).AI_PROVIDER).toBe("openai");
    expect(loadConfig({ AI_PROVIDER: "openai", AI_BASE_URL: "http://127.0.0.1:11434/v1" }).AI_BASE_URL).toBe("http://127.0.0.1:11434/v1");
    expect(() => loadConfig({ AI_PROVIDER: "gpt" })).toThrow(/AI_PROVIDER/);
  });

  it("reads numbers, URLs and flags from strings", () => {
    const config = loadConfig({
      PORT: "0",
      DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/prs",
      REDIS_URL: "redis://127.0.0.1:6379",
      RATE_LIMIT_FREE: "6",
      SQL_STATEMENT_EVENTS: "true",
      LOG_LEVEL: "silent",
    });
    expect(config).toMatchObject({
      PORT: 0,
      DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/prs",
      REDIS_URL: "redis://127.0.0.1:6379",
      RATE_LIMIT_FREE: 6,
      SQL_STATEMENT_EVENTS: true,
      LOG_LEVEL: "silent",
    });
  });

  it("treats an empty variable as unset", () => {
    const config = loadConfig({ DATABASE_URL: "", PORT: "" });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.PORT).toBe(3000);
  });

  it("reads the cap on a team's active keys as a positive whole number", () => {
    expect(loadConfig({ MAX_KEYS_PER_TEAM: "5" }).MAX_KEYS_PER_TEAM).toBe(5);
    expect(() => loadConfig({ MAX_KEYS_PER_TEAM: "0" })).toThrow(/MAX_KEYS_PER_TEAM: /);
    expect(() => loadConfig({ MAX_KEYS_PER_TEAM: "lots" })).toThrow(/MAX_KEYS_PER_TEAM: /);
  });

  it("reads the cap on a team's webhook endpoints as a positive whole number", () => {
    expect(loadConfig({ MAX_WEBHOOKS_PER_TEAM: "5" }).MAX_WEBHOOKS_PER_TEAM).toBe(5);
    expect(() => loadConfig({ MAX_WEBHOOKS_PER_TEAM: "0" })).toThrow(/MAX_WEBHOOKS_PER_TEAM: /);
  });

  it.each([
    ["true", true],
    ["false", false],
    ["2", 2],
    ["loopback", "loopback"],
    ["10.0.0.0/8, 127.0.0.1", "10.0.0.0/8, 127.0.0.1"],
  ])("TRUST_PROXY=%j is %j", (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });

  it("refuses bad settings, naming each", () => {
    expect(() => loadConfig({ PORT: "70000", RATE_LIMIT_PRO: "0", LOG_LEVEL: "loud" })).toThrow(/^Invalid configuration: .*PORT: .*; .*/);
    let message = "";
    try {
      loadConfig({ PORT: "70000", RATE_LIMIT_PRO: "0", LOG_LEVEL: "loud", DATABASE_URL: "not a url", USAGE_FLUSH_MS: "soon" });
    } catch (err) {
      message = (err as Error).message;
    }
    for (const name of ["PORT", "RATE_LIMIT_PRO", "LOG_LEVEL", "DATABASE_URL", "USAGE_FLUSH_MS"]) expect(message).toContain(`${name}: `);
  });

  it("runs several processes only on PostgreSQL with Redis, and auto means one per core", () => {
    const shared = { DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/prs", REDIS_URL: "redis://127.0.0.1:6379" };
    expect(loadConfig({ ...shared, WEB_CONCURRENCY: "2" }).WEB_CONCURRENCY).toBe(2);
    expect(loadConfig({ ...shared, WEB_CONCURRENCY: "auto" }).WEB_CONCURRENCY).toBe(availableParallelism());
    expect(() => loadConfig({ WEB_CONCURRENCY: "2" })).toThrow(/WEB_CONCURRENCY: several processes need DATABASE_URL/);
    expect(() => loadConfig({ DATABASE_URL: shared.DATABASE_URL, WEB_CONCURRENCY: "2" })).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ WEB_CONCURRENCY: "two" })).toThrow(/WEB_CONCURRENCY: must be a whole number of processes or "auto"/);
    expect(() => loadConfig({ WEB_CONCURRENCY: "0" })).toThrow(/WEB_CONCURRENCY/);
  });

  it("reads read replicas as a list of URLs, only beside a primary", () => {
    const primary = { DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/prs" };
    const replicas = "postgresql://postgres@10.0.0.2:5432/prs, postgresql://postgres@10.0.0.3:5432/prs,";
    expect(loadConfig({ ...primary, DATABASE_REPLICA_URLS: replicas }).DATABASE_REPLICA_URLS).toEqual(["postgresql://postgres@10.0.0.2:5432/prs", "postgresql://postgres@10.0.0.3:5432/prs"]);
    expect(() => loadConfig({ ...primary, DATABASE_REPLICA_URLS: "replica-1" })).toThrow(/DATABASE_REPLICA_URLS\.0: each must be a postgresql:\/\/ URL/);
    expect(() => loadConfig({ DATABASE_REPLICA_URLS: "postgresql://postgres@10.0.0.2:5432/prs" })).toThrow(/DATABASE_REPLICA_URLS: replicas need DATABASE_URL/);
    expect(() => loadConfig({ ...primary, DATABASE_REPLICA_MAX_LAG_MS: "0" })).toThrow(/DATABASE_REPLICA_MAX_LAG_MS/);
  });

  it("refuses a flag that is not a boolean word", () => {
    expect(() => loadConfig({ SQL_STATEMENT_EVENTS: "maybe" })).toThrow("SQL_STATEMENT_EVENTS");
  });

  it("DATABASE_PREPARED_STATEMENTS: unset or auto decides by itself, true/false force, anything else is refused", () => {
    const read = (value?: string) => loadConfig(value === undefined ? {} : { DATABASE_PREPARED_STATEMENTS: value }).DATABASE_PREPARED_STATEMENTS;
    expect([read(), read("auto"), read("true"), read("false")]).toEqual([undefined, undefined, true, false]);
    expect(() => loadConfig({ DATABASE_PREPARED_STATEMENTS: "sometimes" })).toThrow("DATABASE_PREPARED_STATEMENTS");
  });

  it(".env.example lists every variable, each with its default (or a valid example where there is none)", () => {
    const text = readFileSync(path.resolve(__dirname, "../../.env.example"), "utf8");
    const listed = [...text.matchAll(/^# ?([A-Z][A-Z0-9_]*)=(.*)$/gm)].map(([, name, value]) => ({ name, value }));
    expect(listed.map((v) => v.name).sort()).toEqual([...CONFIG_VARIABLES].sort());
    const defaults = loadConfig({}) as Record<string, unknown>;
    for (const { name, value } of listed) {
      if (value === "") continue; // documented in words (a path of the project, or nothing)
      const read = (loadConfig({ [name]: value }) as Record<string, unknown>)[name];
      if (defaults[name] !== undefined) expect({ name, value: read }).toEqual({ name, value: defaults[name] });
    }
  });
});
