// Stopping the server: SIGTERM takes no new request but lets the one in flight finish, then
// exits 0; kill -9 under write load loses no acknowledged write. Real server processes on the suite's database.
import net from "node:net";
import { childEnv, cliTeamAndKey, startServer, tempDir } from "../support/server";


/** Reads from a raw socket until `done(text)` holds (or the socket closes). */
function readUntil(socket: net.Socket, done: (text: string) => boolean): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    const onData = (d: Buffer) => {
      text += d.toString();
      if (done(text)) finish();
    };
    const finish = () => {
      socket.off("data", onData);
      socket.off("close", finish);
      resolve(text);
    };
    socket.on("data", onData);
    socket.on("close", finish);
  });
}
/** True once `text` holds a whole HTTP response with a Content-Length body. */
function complete(text: string): boolean {
  const end = text.indexOf("\r\n\r\n");
  const length = /\r\nContent-Length: (\d+)/i.exec(text);
  return end >= 0 && length !== null && Buffer.byteLength(text.slice(end + 4)) >= Number(length[1]);
}
const connect = (port: number) =>
  new Promise<net.Socket>((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => resolve(socket));
    socket.once("error", reject);
  });
const closed = (socket: net.Socket) => new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once("close", () => resolve())));

describe("SIGTERM", () => {
  it("closes idle keep-alive connections, refuses new ones, finishes the request in flight with Connection: close, exits 0", async () => {
    const env = childEnv(tempDir("stop"));
    const { key } = await cliTeamAndKey(env);
    const server = await startServer(env);
    const port = Number(new URL(server.url).port);

    // An idle keep-alive connection: one request answered, the connection left open.
    const idle = await connect(port);
    idle.write("GET /health HTTP/1.1\r\nHost: test\r\n\r\n");
    expect(await readUntil(idle, complete)).toMatch(/^HTTP\/1.1 200/);

    // A request in flight: its head is read (the server answered 100 Continue), half of its body sent.
    const body = JSON.stringify({ address: "1 Draining Road", city: "Springfield" });
    const busy = await connect(port);
    const head =
      `POST /v1/reports HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`;
    const continued = readUntil(busy, (t) => t.includes("100 Continue\r\n\r\n"));
    busy.write(head);
    expect(await continued).toMatch(/^HTTP\/1.1 100 Continue/);
    busy.write(body.slice(0, 10));

    const exited = server.stop("SIGTERM");
    // The idle connection is closed by the server, and no new connection is accepted.
    await closed(idle);
    let refused = false;
    for (let i = 0; i < 100 && !refused; i++) {
      refused = await connect(port).then(
        (s) => (s.destroy(), new Promise((r) => setTimeout(r, 100)).then(() => false)),
        (err: NodeJS.ErrnoException) => err.code === "ECONNREFUSED",
      );
    }
    expect(refused).toBe(true);

    // The request in flight still completes, and its connection is not kept for another.
    const answer = readUntil(busy, (t) => complete(t.replace(/^HTTP\/1.1 100 Continue\r\n\r\n/, "")));
    busy.write(body.slice(10));
    const response = (await answer).replace(/^HTTP\/1.1 100 Continue\r\n\r\n/, "");
    expect(response).toMatch(/^HTTP\/1.1 201/);
    expect(response).toMatch(/\r\nConnection: close\r\n/i);
    expect(response).toContain('"address":"1 Draining Road"');
    await closed(busy);
    expect(await exited).toBe(0);
    expect(server.output()).toContain('"msg":"stopped"');
  }, 180_000);
});

describe("kill -9 under write load", () => {
  it("loses no acknowledged write", async () => {
    const env = childEnv(tempDir("kill9"));
    const { key } = await cliTeamAndKey(env);
    const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
    const first = await startServer(env);
    const url = first.url;

    const acknowledged: string[] = [];
    let failed = 0;
    let killing = false;
    const worker = async (w: number) => {
      for (let i = 0; !killing; i++) {
        try {
          const res = await fetch(`${url}/v1/reports`, { method: "POST", headers, body: JSON.stringify({ address: `${w}-${i} Crash Court` }) });
          if (res.status === 201) acknowledged.push(((await res.json()) as { data: { id: string } }).data.id);
          else failed++;
        } catch {
          failed++; // the connection died with the process: not acknowledged
          return;
        }
      }
    };
    const workers = Array.from({ length: 8 }, (_, w) => worker(w));
    // Kill while the writers are still going, after a good number of writes were acknowledged.
    while (acknowledged.length < 300) await new Promise((resolve) => setTimeout(resolve, 20));
    killing = true;
    expect(await first.stop("SIGKILL")).toBeNull();
    await Promise.all(workers);

    const second = await startServer(env);
    try {
      const url2 = second.url;
      const stored = new Set<string>();
      for (let offset = 0; ; offset += 100) {
        const page = (await (await fetch(`${url2}/v1/reports?limit=100&offset=${offset}`, { headers })).json()) as { data: Array<{ id: string }>; total: number };
        page.data.forEach((r) => stored.add(r.id));
        if (offset + 100 >= page.total) break;
      }
      const missing = acknowledged.filter((id) => !stored.has(id));
      console.log(`kill -9: ${acknowledged.length} writes acknowledged, ${stored.size} stored, ${failed} unanswered; ${missing.length} acknowledged writes missing`);
      expect(missing).toEqual([]);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  }, 240_000);
});
