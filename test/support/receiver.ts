// A webhook receiver for tests: a real node:http server on 127.0.0.1 that records what arrives and answers with the
// statuses it was given, or holds a request open (a receiver that hangs).
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The request's path and query. */
  url: string;
  json: { id: string; type: string; timestamp: string; data: Record<string, unknown> };
}

export type Receiver = Awaited<ReturnType<typeof receiver>>;

/**
 * Answers each request with the next status of `statuses` (then the last one again) and `body(n)` for the nth request;
 * a status of 0 never answers (the request stays open until the receiver closes).
 */
export async function receiver(statuses: number[] = [200], body = (n: number) => `answer ${n}`) {
  const received: Received[] = [];
  let waiting: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    let text = "";
    req.on("data", (chunk) => (text += chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body: text, url: req.url ?? "", json: JSON.parse(text) });
      const status = statuses[Math.min(received.length - 1, statuses.length - 1)];
      if (status) {
        res.statusCode = status;
        res.end(body(received.length));
      }
      waiting.forEach((wake) => wake());
      waiting = [];
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    received,
    /** Resolves once `n` requests arrived (fails the test after `ms`). */
    async count(n: number, ms = 10_000): Promise<Received[]> {
      const deadline = Date.now() + ms;
      while (received.length < n) {
        if (Date.now() > deadline) throw new Error(`the receiver got ${received.length} of ${n} requests`);
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          setTimeout(resolve, 200);
        });
      }
      return received.slice(0, n);
    },
    close: () =>
      new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections();
      }),
  };
}
