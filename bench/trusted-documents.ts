// How long registering a manifest of trusted documents holds the event loop (README "Trusted documents and HTTP
// caching"): one process on the embedded database registers 500 distinct documents (the cap of one request) through
// POST /v1/graphql/documents while a client asks GET /health one request after another. Prints, per run, the
// registration's time, how many /health answers came back meanwhile, the slowest of them and the event loop's longest
// delay. On a new database in memory, never the service's own:
//   PGLITE_DATA_DIR=memory:// LOG_LEVEL=silent npx tsx bench/trusted-documents.ts [runs]
import { createHash, randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createApiKey } from "../src/auth/api-keys";
import { parsePermissions } from "../src/auth/permissions";
import { createRateLimiter } from "../src/auth/rate-limit";
import { buildApp } from "../src/app";
import { config } from "../src/config";
import { database, prisma } from "../src/db";
import { createAppServer } from "../src/http/server";

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

async function registration(base: string, run: number): Promise<string> {
  const team = await prisma.team.create({ data: { name: `bench ${randomUUID().slice(0, 8)}`, adminName: "Bench" } });
  const { key } = await createApiKey({ teamId: team.id, name: "bench", permissions: parsePermissions("reports:read,api_keys:*") });
  const texts = Array.from({ length: 500 }, (_, i) => `query Bench${run}x${i} { reports(limit: 1) { total items { id address } } }`);
  const body = JSON.stringify(Object.fromEntries(texts.map((text) => [sha(text), text])));
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  let done = false;
  const started = performance.now();
  const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
  const answer = fetch(`${base}/v1/graphql/documents`, { method: "POST", headers, body }).then((res) => ((done = true), res.status));
  const health: number[] = [];
  while (!done) {
    const sent = performance.now();
    await fetch(`${base}/health`).then((res) => res.arrayBuffer());
    health.push(performance.now() - sent);
  }
  const status = await answer;
  delay.disable();
  const ms = (n: number) => `${Math.round(n)} ms`;
  return `status ${status}, registration ${ms(performance.now() - started)}, /health answered ${health.length} times (slowest ${ms(Math.max(...health))}), event loop delay at most ${ms(delay.max / 1e6)}`;
}

async function main(): Promise<void> {
  if (config.DATABASE_URL || config.PGLITE_DATA_DIR !== "memory://") throw new Error("run it with PGLITE_DATA_DIR=memory:// and no DATABASE_URL");
  await database.migrate();
  const rateLimiter = createRateLimiter({ keyPrefix: `prs:bench:${randomUUID()}` });
  const { server } = createAppServer(buildApp({ rateLimiter }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  for (let run = 0; run < Number(process.argv[2] ?? 3); run++) console.log(`run ${run}: ${await registration(base, run)}`);
  server.close();
  await rateLimiter.close();
  await database.close();
}

void main().then(() => process.exit(0));
