// Whether this process is answering requests: background work gives way to them. The webhook delivery worker
// (src/webhooks/worker.ts) claims new deliveries at a slow pace while requests keep coming, at full pace once none
// has been answered for a moment.
import type { RequestHandler } from "express";

let answering = 0;
let lastAnswered = 0;

/** Milliseconds since the last request was answered; 0 while one is being answered. */
export const quietForMs = (): number => (answering > 0 ? 0 : Date.now() - lastAnswered);

const counted = new WeakSet<object>();

/** Counts the request until its response is sent or its connection closes. */
export const countRequests = (): RequestHandler => (_req, res, next) => {
  answering++;
  counted.add(res);
  res.once("close", () => notAnswering(res));
  next();
};

/** Stops counting a response early: a live stream stays open for hours without keeping background work waiting. */
export function notAnswering(res: object): void {
  if (!counted.delete(res)) return;
  answering--;
  lastAnswered = Date.now();
}
