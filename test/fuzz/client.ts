// A minimal HTTP client for the in-process app (listening on 127.0.0.1): sends the path, headers and body bytes
// exactly as generated — supertest/superagent would re-encode a path, add a Content-Type to a text body and refuse to
// omit one, and a fuzzer needs bad percent-escapes and bodies without a type to reach the server as written.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Express } from "express";
import { createAppServer } from "../../src/http/server";

export interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** How `body` becomes bytes: UTF-8 (default), or latin1 for a body holding binary parts (a multipart upload). */
  encoding?: "latin1";
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: unknown;
  /** Whether the body parsed as JSON. */
  isJson: boolean;
}

/** How long one request may take before the fuzzer reports it as hanging (a bound against hangs, not a timing test). */
const HANG_MS = Number(process.env.FUZZ_HANG_MS ?? 30_000);

export class Client {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  count = 0;

  private constructor(
    readonly server: http.Server,
    private readonly port: number,
  ) {}

  /**
   * Listens on an ephemeral port of 127.0.0.1 with the server src/server.ts runs (createAppServer: Node's own
   * refusals, e.g. a 431 for a head over 16 KB, answer with the JSON error envelope too).
   */
  static async listen(app: Express): Promise<Client> {
    const { server } = createAppServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return new Client(server, (server.address() as AddressInfo).port);
  }

  send(req: Sent): Promise<Answer> {
    this.count++;
    return new Promise((resolve, reject) => {
      let answered = false;
      const headers: Record<string, string | number> = { ...req.headers };
      const body = req.body === undefined ? undefined : Buffer.from(req.body, req.encoding ?? "utf8");
      if (body) headers["Content-Length"] = body.length;
      const r = http.request({ host: "127.0.0.1", port: this.port, method: req.method, path: req.path, headers, agent: this.agent }, (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        const finish = () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let json: unknown;
          let isJson = false;
          try {
            json = JSON.parse(text);
            isJson = true;
          } catch {
            /* not JSON */
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json, isJson });
        };
        // An event stream (a subscription that opened) never ends by itself: its first bytes are the answer.
        const stream = (res.headers["content-type"] ?? "").startsWith("text/event-stream");
        res.on("data", (c: Buffer) => {
          chunks.push(c);
          if (stream) r.destroy();
        });
        res.on("end", finish);
        res.on("close", finish);
      });
      r.setTimeout(HANG_MS, () => r.destroy(new Error(`no answer within ${HANG_MS} ms (FUZZ_HANG_MS)`)));
      // A server that answers early (413, 431) may close before the body is written: the answer still counts.
      r.on("error", (err) => (answered ? undefined : reject(err)));
      r.end(body);
    });
  }

  async close(): Promise<void> {
    this.agent.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
