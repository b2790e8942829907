// Benchmark only (bench/server.ts, on a server started with SQL_STATEMENT_EVENTS=true): counts the SQL statements
// each HTTP request runs and returns the count in the X-SQL-Statements response header, so the benchmark can check
// "constant statements per request" over HTTP. Statements are attributed to the request through
// AsyncLocalStorage; statements run after the headers are written (fire-and-forget work) are not in the count.
import { AsyncLocalStorage } from "node:async_hooks";
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { database } from "../src/db";

export const STATEMENT_COUNT_HEADER = "X-SQL-Statements";

const currentRequest = new AsyncLocalStorage<{ statements: number }>();
let subscribed = false;

/** `handler` (the app) with the X-SQL-Statements header on every response. */
export function withStatementCount(handler: RequestListener): RequestListener {
  if (!subscribed) {
    subscribed = true;
    database.onStatement(() => {
      const store = currentRequest.getStore();
      if (store) store.statements++;
    });
  }
  return (req: IncomingMessage, res: ServerResponse) => {
    const store = { statements: 0 };
    const writeHead = res.writeHead;
    // Set at the last moment before the headers go out, whichever layer (Express or Yoga) sends them.
    res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      if (!this.headersSent) this.setHeader(STATEMENT_COUNT_HEADER, String(store.statements));
      return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
    } as ServerResponse["writeHead"];
    currentRequest.run(store, () => handler(req, res));
  };
}
