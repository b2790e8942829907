// Opt-in (SQL_STATEMENT_EVENTS=true only): counts the SQL statements each HTTP request runs and returns the count
// in the X-SQL-Statements response header, so the benchmark can check "constant statements per request" over HTTP.
// Statements are attributed to the request through AsyncLocalStorage; statements run after the headers are
// written (fire-and-forget work) are not in the count.
import { AsyncLocalStorage } from "node:async_hooks";
import type { NextFunction, Request, Response } from "express";
import { database } from "../db";

export const STATEMENT_COUNT_HEADER = "X-SQL-Statements";

const currentRequest = new AsyncLocalStorage<{ statements: number }>();
let subscribed = false;

export function statementCountHeader() {
  if (!subscribed) {
    subscribed = true;
    database.onStatement(() => {
      const store = currentRequest.getStore();
      if (store) store.statements++;
    });
  }
  return (_req: Request, res: Response, next: NextFunction): void => {
    const store = { statements: 0 };
    const writeHead = res.writeHead;
    // Set at the last moment before the headers go out, whichever layer (Express or Yoga) sends them.
    res.writeHead = function (this: Response, ...args: unknown[]) {
      if (!this.headersSent) this.setHeader(STATEMENT_COUNT_HEADER, String(store.statements));
      return (writeHead as (...a: unknown[]) => Response).apply(this, args);
    } as Response["writeHead"];
    currentRequest.run(store, next);
  };
}
