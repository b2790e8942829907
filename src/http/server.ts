// The HTTP server around the Express app: malformed requests Node refuses before Express sees them get the JSON
// error envelope, and a graceful stop that takes no new request while in-flight ones finish.
import http, { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { Express } from "express";

/** Answers Node's own parse failures (431 for a head over Node's 16 KB maxHeaderSize, 400 otherwise) as JSON. */
function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === "ECONNRESET" || !socket.writable) return void socket.destroy();
  const [status, message] =
    err.code === "HPE_HEADER_OVERFLOW"
      ? [431, "Request header fields too large (limit 16 KB)"]
      : err.code === "HPE_HEADERS_TIMEOUT" || err.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "Request timeout"]
        : [400, "Malformed HTTP request"];
  const body = JSON.stringify({ error: { message, status } });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export interface AppServer {
  server: http.Server;
  /**
   * Graceful stop: stops listening, closes idle keep-alive connections at once, answers everything still to be
   * answered with `Connection: close` (so no connection carries another request), and resolves once the requests
   * in flight have finished — or after `timeoutMs`, when the connections still open are closed. `forced` tells
   * which.
   */
  stop(timeoutMs: number): Promise<{ forced: boolean }>;
}

export function createAppServer(app: Express): AppServer {
  let stopping = false;
  const inFlight = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    inFlight.add(res);
    res.once("close", () => {
      inFlight.delete(res);
      // Its connection is idle now: close it rather than wait for the client's next request.
      if (stopping) setImmediate(() => server.closeIdleConnections());
    });
    if (stopping) res.setHeader("Connection", "close");
    app(req, res);
  });
  server.on("clientError", answerClientError);
  return {
    server,
    stop(timeoutMs) {
      stopping = true;
      for (const res of inFlight) if (!res.headersSent) res.setHeader("Connection", "close");
      return new Promise((resolve) => {
        let forced = false;
        const timer = setTimeout(() => {
          forced = true;
          server.closeAllConnections();
        }, timeoutMs);
        server.close(() => {
          clearTimeout(timer);
          resolve({ forced });
        });
        server.closeIdleConnections();
      });
    },
  };
}
