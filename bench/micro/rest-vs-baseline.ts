// Process CPU per GET /v1/reports/{id}: the REST stack vs scenario 1's hand-written baseline route, both apps in this
// one process, driven by CONC keep-alive clients in this process too (the client's share is the same on both sides).
// Medians of 10 alternated blocks of 600 requests. With ONLY=stack|baseline, loads one side alone (for --cpu-prof).
//   DATABASE_URL=… REDIS_URL=… NODE_ENV=production LOG_LEVEL=warn CONC=10 tsx bench/micro/rest-vs-baseline.ts
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Express } from "express";
import { createApiKey } from "../../src/auth/api-keys";
import { createRateLimiter } from "../../src/auth/rate-limit";
import { buildApp } from "../../src/app";
import { database, prisma } from "../../src/db";
import { teamWithNestedReport } from "./fixture";
import { buildBaselineApp } from "../baseline";

const BLOCK = 600;
const listen = (app: Express) =>
  new Promise<number>((resolve) => {
    const server = app.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

(async () => {
  await database.migrate();
  const { team, report } = await teamWithNestedReport("Micro rest-vs-baseline");
  const { key } = await createApiKey({ teamId: team.id, name: "k", tier: "enterprise" });
  const rateLimiter = createRateLimiter({ redisUrl: process.env.REDIS_URL });
  await rateLimiter.ready();
  const ports = { stack: await listen(buildApp({ rateLimiter })), baseline: await listen(buildBaselineApp(rateLimiter)) };

  const agent = new http.Agent({ keepAlive: true, maxSockets: 20 });
  const get = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const options = { port, host: "127.0.0.1", path: `/v1/reports/${report.id}`, agent, headers: { Authorization: `Bearer ${key}` } };
      http.get(options, (res) => res.resume().on("end", () => resolve(res.statusCode!))).on("error", reject);
    });
  const concurrency = Number(process.env.CONC ?? 1);
  /** CPU ms per request over one block. */
  const block = async (port: number) => {
    const start = process.cpuUsage();
    let left = BLOCK;
    const client = async () => {
      while (left-- > 0) if ((await get(port)) !== 200) throw new Error("not 200");
    };
    await Promise.all(Array.from({ length: concurrency }, client));
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000 / BLOCK;
  };

  const only = process.env.ONLY as keyof typeof ports | undefined;
  if (only) {
    for (let i = 0; i < 15; i++) await block(ports[only]);
  } else {
    for (let i = 0; i < 3; i++) {
      await block(ports.stack); // warm-up
      await block(ports.baseline);
    }
    const stack: number[] = [];
    const baseline: number[] = [];
    for (let i = 0; i < 10; i++) {
      stack.push(await block(ports.stack));
      baseline.push(await block(ports.baseline));
    }
    const [s, b] = [median(stack), median(baseline)];
    console.log(`concurrency ${concurrency}: stack ${s.toFixed(3)} ms CPU/request, baseline ${b.toFixed(3)}, +${(s - b).toFixed(3)} ms, ratio ${(b / s).toFixed(3)}`);
  }
  await prisma.team.delete({ where: { id: team.id } });
  process.exit(0);
})();
