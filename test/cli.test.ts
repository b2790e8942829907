// The `prs` CLI as a user runs it: a real child process (bin/prs.js) on the suite's database (an on-disk PGlite
// directory, or DATABASE_URL), and the keys it makes used over HTTP against a real server process.
import { existsSync } from "node:fs";
import path from "node:path";
import { childEnv, cli, runCli, sharedDatabase, startServer, tempDir, type ServerProcess } from "./support/server";

const KEY = /^prs_sk_live_[A-Za-z0-9]{32}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("prs arguments", () => {
  const dir = path.join(tempDir("cli-args"), "db");
  const env = childEnv(dir);

  it("prints help for the tool and for each command", async () => {
    const main = await runCli(["--help"], env);
    expect(main.code).toBe(0);
    expect(main.stdout).toMatch(/^Usage: prs <command>/);
    for (const command of [["team", "create"], ["team", "list"], ["key", "create"], ["key", "list"], ["key", "revoke"]]) {
      const help = await runCli([...command, "--help"], env);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`Usage: prs ${command.join(" ")}`);
    }
    expect((await runCli(["key", "create", "--help"], env)).stdout).toContain("--permissions");
  });

  // Independent short-lived processes: run side by side.
  it.concurrent.each([
    [[], "Missing command"],
    [["frob"], "Unknown command 'frob'"],
    [["key"], "Missing key command"],
    [["key", "rotate"], "Unknown command 'key rotate'"],
    [["team", "create", "--name", "X", "--admin", "Y", "--colour", "red"], "Unknown option '--colour'"],
    [["team", "create", "--admin", "Y"], "Missing required option --name"],
    [["team", "create", "--name", " ", "--admin", "Y"], "--name must not be empty"],
    [["key", "create", "--name", "k"], "Missing required option --team"],
    [["key", "create", "--team", "team-1", "--name", "k"], "--team must be a team id (a uuid), got 'team-1'"],
    [["key", "create", "--team", "5b0e8c1e-8d1f-4a59-9d7e-1f9f6c1b2a10"], "Missing required option --name"],
    [["key", "create", "--team", "5b0e8c1e-8d1f-4a59-9d7e-1f9f6c1b2a10", "--name", "k", "--expires", "tomorrow"], "--expires must be an ISO 8601 date"],
    [["key", "create", "--team", "5b0e8c1e-8d1f-4a59-9d7e-1f9f6c1b2a10", "--name", "k", "--expires", "2027-13-45"], "--expires must be an ISO 8601 date"],
    [["key", "create", "--team", "5b0e8c1e-8d1f-4a59-9d7e-1f9f6c1b2a10", "--name", "k", "--expires", "2001-01-01"], "--expires must be in the future"],
    [["key", "create", "--team", "5b0e8c1e-8d1f-4a59-9d7e-1f9f6c1b2a10", "--name", "k", "--permissions", "reports:read,houses:read"], "Unknown permission 'houses:read'"],
    [["key", "create", "--team", "5b0e8c1e-8d1f-4a59-9d7e-1f9f6c1b2a10", "--name", "k", "--permissions", "reports:fly"], "Unknown permission 'reports:fly'"],
    [["key", "create", "--team", "5b0e8c1e-8d1f-4a59-9d7e-1f9f6c1b2a10", "--name", "k", "--tier", "platinum"], "Unknown tier 'platinum'"],
    [["key", "create", "--team", "5b0e8c1e-8d1f-4a59-9d7e-1f9f6c1b2a10", "--name"], "argument missing"],
    [["key", "list"], "Missing required option --team"],
    [["key", "revoke"], "Missing argument <key>"],
    [["key", "revoke", "a", "b"], "Unexpected argument 'b'"],
  ])("prs %j fails with exit code 2 and says why, without opening the database", async (args, message) => {
    const result = await runCli(args, env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain("Usage: prs");
    expect(result.stdout).toBe("");
    expect(existsSync(dir)).toBe(false);
  });
});

describe("prs on the database", () => {
  const dir = path.join(tempDir("cli-db"), "db");
  const env = childEnv(dir);
  let teamId: string;
  let key: string;
  let server: ServerProcess | null = null;
  afterAll(async () => void (await server?.stop()));

  const me = (url: string, k: string) => fetch(`${url}/v1/users/me`, { headers: { Authorization: `Bearer ${k}` } });

  it("creates a team and prints only its id", async () => {
    const result = await runCli(["team", "create", "--name", "Harbor Homes", "--admin", "Dana Admin", "--plan", "pro"], env);
    expect(result.stderr).toBe("");
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

  it("creates a key and prints it once, alone on the last line; the list never shows it", async () => {
    const result = await runCli(
      ["key", "create", "--team", teamId, "--name", "Zapier", "--description", "sync", "--permissions", "reports:read,showings:*", "--tier", "pro", "--expires", "2099-01-01"],
      env,
    );
    expect(result.code).toBe(0);
    key = result.stdout.trimEnd().split("\n").at(-1)!;
    expect(key).toMatch(KEY);
    expect(result.stdout.split(key)).toHaveLength(2);
    const list = (await cli(["key", "list", "--team", teamId], env)).join("\n");
    expect(list).toContain(key.slice(0, 16));
    expect(list).not.toContain(key.slice(16));
    expect(list).toMatch(/Zapier\s+pro\s+active/);
    expect(list).toContain("reports:read,showings:*");
    expect(list).toContain("2099-01-01T00:00:00.000Z");
  }, 60_000);

  it("makes a key that works over HTTP with its permissions and tier", async () => {
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
  }, 120_000);

  (sharedDatabase ? it.skip : it)("refuses to open the embedded database while a server has it open", async () => {
    const result = await runCli(["key", "list", "--team", teamId], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("has the embedded database");
    expect(result.stderr).toContain("stop the server first");
    expect((await me(server!.url, key)).status).toBe(200);
  }, 60_000);

  it("revokes a key by its prefix; its next request gets 401", async () => {
    if (!sharedDatabase) await server!.stop(); // PGlite is single-process: the CLI cannot open it while a server has it
    const revoked = await cli(["key", "revoke", key.slice(0, 16)], env);
    expect(revoked.join("\n")).toMatch(/^Revoked key [0-9a-f-]{36} \(prs_sk_live_\w{4}, 'Zapier'\)/);
    if (!sharedDatabase) server = await startServer(env);
    const res = await me(server!.url, key);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { message: "Invalid API key", status: 401 } });
    if (!sharedDatabase) await server!.stop();
    const again = await cli(["key", "revoke", key], env);
    expect(again.join("\n")).toContain("was already revoked");
    expect((await cli(["key", "list", "--team", teamId], env)).join("\n")).toMatch(/Zapier\s+pro\s+revoked/);
  }, 180_000);

  it("fails with exit code 1 for a key that does not exist", async () => {
    const result = await runCli(["key", "revoke", "prs_sk_live_zzzz"], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("No API key matches 'prs_sk_live_zzzz'");
  }, 60_000);
});
