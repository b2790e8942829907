// Scenario 7's webhook receiver, run as its own process (bench/scenarios/webhooks.ts forks it) so that receiving
// thousands of deliveries a second does not slow the load generator in the bench process. Answers every POST 204
// and notes each delivery's lag (receipt time − the event's timestamp); answers IPC "stats" with what it saw.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const lags: number[] = [];
const seen = new Set<string>();
let last = Date.now();

const server = createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    const arrived = Date.now();
    const event = JSON.parse(body) as { id: string; timestamp: string };
    lags.push(arrived - Date.parse(event.timestamp));
    seen.add(`${req.url} ${event.id}`);
    last = arrived;
    res.statusCode = 204;
    res.end();
  });
});

server.listen(0, "127.0.0.1", () => process.send?.({ port: (server.address() as AddressInfo).port }));
// "stats" answers what arrived; with "takeLags", the lags noted since the last take (then forgotten), else none.
process.on("message", (m: { stats?: boolean; takeLags?: boolean }) => {
  if (m.stats) process.send?.({ delivered: seen.size, quietMs: Date.now() - last, lags: m.takeLags ? lags.splice(0) : [] });
});
process.on("disconnect", () => process.exit(0));
