// The outbox survives a crash: a server process killed with SIGKILL right after a change committed (its delivery
// perhaps in flight) loses no event — started again, it delivers it. On PGlite on disk, or on PostgreSQL a database
// of the file's own: a delivering process claims every team's due attempts on its database, and on the suite's it
// sent other test files' retries before those files expected (webhooks.test.ts's Redeliver test).
import { Webhook } from "standardwebhooks";
import { ownDatabaseForFile } from "../support/own-database";
import { childEnv, cliTeamAndKey, DELIVERING, startServer, tempDir, type ServerProcess } from "../support/server";
import { receiver } from "../support/receiver";

jest.setTimeout(180_000);

const own = ownDatabaseForFile("webhookcrash");

it("delivers the event of a change committed just before kill -9, once the server is back", async () => {
  // The first request is held open (a hanging receiver: the attempt is in flight when the process dies), the rest answered.
  const r = await receiver([0, 200]);
  const env = childEnv(tempDir("webhook-crash"), { ...DELIVERING, WEBHOOK_TIMEOUT_MS: "1000", WEBHOOK_POLL_MS: "200", ...own });
  const { key } = await cliTeamAndKey(env, ["--permissions", "webhooks:*,reports:*"]);
  const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
  let server: ServerProcess | undefined = await startServer(env);
  try {
    const created = await fetch(`${server.url}/v1/webhooks`, { method: "POST", headers, body: JSON.stringify({ url: r.url, events: ["report.created"] }) });
    expect(created.status).toBe(201);
    const { secret } = ((await created.json()) as { data: { secret: string } }).data;
    const write = await fetch(`${server.url}/v1/reports`, { method: "POST", headers, body: JSON.stringify({ address: "1 Crash Lane" }) });
    expect(write.status).toBe(201); // committed
    const reportId = ((await write.json()) as { data: { id: string } }).data.id;
    expect(await server.stop("SIGKILL")).toBeNull();

    server = await startServer(env);
    // Whether or not the first attempt had begun, an answered request arrives: the claim of a dead process runs out
    // after the timeout and 5 s; an attempt made after the restart is held, times out and is retried 1 s later.
    const [, answered] = await r.count(2, 60_000);
    expect(new Webhook(secret).verify(answered.body, answered.headers as Record<string, string>)).toEqual(
      expect.objectContaining({ type: "report.created", data: expect.objectContaining({ id: reportId, address: "1 Crash Lane" }) }),
    );
    // One event, the same webhook-id on each attempt.
    expect(new Set(r.received.map((d) => d.headers["webhook-id"])).size).toBe(1);
  } finally {
    await server?.stop();
    await r.close();
  }
});
