// The `prs` CLI as a user runs it: a real child process (bin/prs.js) on the suite's database (an on-disk PGlite
// directory, or DATABASE_URL), and the keys it makes used over HTTP against a real server process. Every message of
// the argument parser is checked in-process by test/unit/cli-args.test.ts; here, what the process does with them.
// The argument checks run the installed bin (bin/prs.js, the sources through tsx); the commands on the database run
// the service compiled by the global setup (test/support/process-js.ts), which starts in a fraction of the time.
import { existsSync } from "node:fs";
import path from "node:path";
import { childEnv, cli, runCli, sharedDatabase, startServer, tempDir, type ServerProcess } from "../support/server";

const KEY = /^prs_sk_live_[A-Za-z0-9]{32}$/;

/**
 * Standard error without what opening the suite's shared PostgreSQL database may say before the command runs: the
 * warning of a database without DATA_ENCRYPTION_KEY (its development key: .ci/run's PostgreSQL pass sets none), and
 * the note that attendee contact data still in plain text was encrypted (other test files write showings straight to
 * the database, as an older release would have left them; the first process to open it after them seals them). The
 * embedded database of this file is its own, keeps its own key, and says neither.
 */
const withoutStartNotes = (stderr: string) =>
  stderr
    .split("\n")
    .filter((line) => line && !(sharedDatabase && isStartNote(line)))
    .join("\n");
const isStartNote = (line: string) =>
  (line.includes('"level":"warn"') && line.includes("DATA_ENCRYPTION_KEY is not set")) ||
  (line.includes('"level":"info"') && line.includes('"msg":"attendee contact data encrypted"'));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("prs arguments", () => {
  const dir = path.join(tempDir("cli-args"), "db");
  const env = childEnv(dir);

  it.concurrent.each([
    [["--help"], "Usage: prs <command>"],
    [["key", "create", "--help"], "Usage: prs key create"],
  ])("prs %j prints help on stdout and exits 0, without opening the database", async (args, usage) => {
    const result = await runCli(args, env, { bin: true });
    expect(result.code).toBe(0);
    expect(result.stdout.startsWith(usage)).toBe(true);
    expect(result.stderr).toBe("");
    expect(existsSync(dir)).toBe(false);
  });

  // One mistake of each stage: finding the command, parsing options, checking a value.
  it.concurrent.each([
    [["frob"], "prs: Unknown command 'frob'", "Usage: prs <command>"],
    [["team", "create", "--name", "X", "--admin", "Y", "--colour", "red"], "Unknown option '--colour'", "Usage: prs team create"],
    [["key", "create", "--team", "5b0e8c1e-8d1f-4a59-9d7e-1f9f6c1b2a10", "--name", "k", "--expires", "2001-01-01"], "prs: --expires must be in the future", "Usage: prs key create"],
  ])("prs %j fails with exit code 2 and says why, without opening the database", async (args, message, usage) => {
    const result = await runCli(args, env, { bin: true });
    expect(result.code).toBe(2);
    const [first, synopsis, ...rest] = result.stderr.trimEnd().split("\n");
    expect(first).toContain(message);
    expect(synopsis).toContain(usage);
    expect(rest.at(-1)).toBe("Run with --help for details.");
    expect(result.stdout).toBe("");
    expect(existsSync(dir)).toBe(false);
  });
});

// One database, one server start: the CLI writes, the server serves what it wrote, and the CLI refuses to open the
// embedded database while the server has it.
describe("prs on the database", () => {
  const dir = path.join(tempDir("cli-db"), "db");
  const env = childEnv(dir);
  let teamId: string;
  let key: string;
  let revoked: string;
  let server: ServerProcess | null = null;
  afterAll(async () => void (await server?.stop()));

  const me = (url: string, k: string) => fetch(`${url}/v1/users/me`, { headers: { Authorization: `Bearer ${k}` } });

  it("creates a team and prints only its id", async () => {
    const result = await runCli(["team", "create", "--name", "Harbor Homes", "--admin", "Dana Admin", "--plan", "pro"], env);
    expect(withoutStartNotes(result.stderr)).toBe("");
    expect(result.code).toBe(0);
    expect(result.lines).toHaveLength(1);
    teamId = result.lines[0];
    expect(teamId).toMatch(UUID);
    expect((await cli(["team", "list"], env)).join("\n")).toMatch(new RegExp(`${teamId}\\s+Harbor Homes\\s+pro`));
  }, 120_000);

  it("refuses a key for an unknown team with exit code 1", async () => {
    const result = await runCli(["key", "create", "--team", "5b0e8c1e-8d1f-4a59-9d7e-1f9f6c1b2a10", "--name", "k"], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("Team 5b0e8c1e-8d1f-4a59-9d7e-1f9f6c1b2a10 not found");
    expect(result.stdout).toBe("");
  }, 60_000);

  it("creates a key and prints it once, alone on the last line", async () => {
    const result = await runCli(
      ["key", "create", "--team", teamId, "--name", "Zapier", "--description", "sync", "--permissions", "reports:read,showings:*", "--tier", "pro", "--expires", "2099-01-01"],
      env,
    );
    expect(result.code).toBe(0);
    key = result.stdout.trimEnd().split("\n").at(-1)!;
    expect(key).toMatch(KEY);
    expect(result.stdout.split(key)).toHaveLength(2);
  }, 60_000);

  it("revokes a key by its prefix, says so when it already was, and fails with exit code 1 for an unknown one", async () => {
    revoked = (await cli(["key", "create", "--team", teamId, "--name", "Old laptop"], env)).at(-1)!;
    const first = await cli(["key", "revoke", revoked.slice(0, 16)], env);
    expect(first.join("\n")).toMatch(/^Revoked key [0-9a-f-]{36} \(prs_sk_live_\w{4}, 'Old laptop'\)/);
    const again = await cli(["key", "revoke", revoked], env);
    expect(again.join("\n")).toContain("was already revoked");
    const unknown = await runCli(["key", "revoke", "prs_sk_live_zzzz"], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No API key matches 'prs_sk_live_zzzz'");
  }, 120_000);

  it("lists a team's keys with their state, never the keys themselves", async () => {
    const list = (await cli(["key", "list", "--team", teamId], env)).join("\n");
    for (const k of [key, revoked]) {
      expect(list).toContain(k.slice(0, 16));
      expect(list).not.toContain(k.slice(16));
    }
    expect(list).toMatch(/Zapier\s+pro\s+active/);
    expect(list).toMatch(/Old laptop\s+standard\s+revoked/);
    expect(list).toContain("reports:read,showings:*");
    expect(list).toContain("2099-01-01T00:00:00.000Z");
  }, 60_000);

  it("makes keys that work over HTTP with their permissions and tier, and revoked keys that get 401", async () => {
    server = await startServer(env);
    const res = await me(server.url, key);
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: any };
    expect(data.team).toMatchObject({ id: teamId, name: "Harbor Homes" });
    expect(data.subscription.plan).toBe("pro");
    expect(data.api_key).toMatchObject({
      name: "Zapier",
      prefix: key.slice(0, 16),
      rate_limit_tier: "pro",
      permissions: { reports: ["read"], showings: ["read", "create", "update", "delete", "publish"] },
    });
    const denied = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ query: `mutation { createReport(input: { address: "1 Main St" }) { id } }` }),
    });
    expect(((await denied.json()) as any).errors[0].message).toBe("Permission denied: reports:create");

    const gone = await me(server.url, revoked);
    expect(gone.status).toBe(401);
    expect(await gone.json()).toEqual({ error: { message: "Invalid API key", status: 401 } });
  }, 120_000);

  (sharedDatabase ? it.skip : it)("refuses to open the embedded database while a server has it open", async () => {
    const result = await runCli(["key", "list", "--team", teamId], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("has the embedded database");
    expect(result.stderr).toContain("stop the server first");
    expect((await me(server!.url, key)).status).toBe(200);
    expect(await server!.stop()).toBe(0);
    server = null;
  }, 60_000);
});
