// Idempotency-Key on every REST POST (docs/api.md "Robustness"), one middleware for everything under /v1.
//
// The first request with a key claims it in the database (one INSERT … ON CONFLICT, atomic across processes), runs,
// and its answer (status and JSON body) is written to the claim before it is sent, so a client whose connection
// dropped gets that answer on retry. A repeat with the same method, path and body (compared as canonical JSON)
// gets the stored answer with `Idempotent-Replayed: true`; another request under the same key is a 422; a repeat
// while the first still runs is a 409. 401, 403, 429 and 5xx answers are not kept: the claim is released, so a
// retry runs again. Keys are scoped to the API key and kept 24 hours from the first request.
//
// Failure modes: a claim whose request never answered (the process died) is abandoned after CLAIM_TIMEOUT and the
// next identical request takes it over. Expired rows are replaced when their key is used again, and deleted in bulk
// by a claim at most once per PRUNE_EVERY per process.
import { createHash, randomUUID } from "node:crypto";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { prisma } from "../db";
import { sendError } from "./errors";
import { logger } from "../logger";
import { bodyParsersFor } from "./bodies";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const REPLAYED_HEADER = "Idempotent-Replayed";

/** Kept this long from the first request. */
const RETENTION_SECONDS = 24 * 60 * 60;
/** An unanswered claim older than this is abandoned (longer than any request's time budget). */
const CLAIM_TIMEOUT_SECONDS = 60;
/** How often a process deletes expired rows (on a claim, not on a timer: nothing to stop at shutdown). */
const PRUNE_EVERY_MS = 10 * 60 * 1000;

const VALID_KEY = /^[\x20-\x7e]{1,255}$/;
export const INVALID_KEY_MESSAGE = `${IDEMPOTENCY_HEADER} header must be 1 to 255 printable ASCII characters`;
export const REUSED_MESSAGE = `${IDEMPOTENCY_HEADER} reused with a different request`;
export const IN_PROGRESS_MESSAGE = `A request with this ${IDEMPOTENCY_HEADER} is in progress`;

/** Answers that are not kept: the key is released and a retry runs again. */
const isKept = (status: number) => status !== 401 && status !== 403 && status !== 429 && status < 500;

/** JSON with object keys sorted at every level: equal for bodies that parse to equal values. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function requestHash(req: Request): string {
  // The body is undefined when the request had none (or an empty one).
  const body = req.body === undefined ? "" : Buffer.isBuffer(req.body) ? `bytes:${req.body.toString("base64")}` : canonicalJson(req.body);
  return createHash("sha256").update(`${req.method}\n${req.originalUrl}\n${body}`).digest("hex");
}

interface StoredRow {
  request_hash: string;
  status: number | null;
  body: string | null;
}

/**
 * Claims (apiKeyId, key) for this request: inserts the row, or takes over one that expired or whose identical
 * request was abandoned. True when this request holds the claim. Runs as one statement, so of two processes racing
 * for one key exactly one gets it (the other waits for the first's row lock, then sees it unexpired).
 */
async function claim(apiKeyId: string, key: string, hash: string, token: string): Promise<boolean> {
  const rows = await prisma.$queryRaw<{ claim_token: string }[]>`
    INSERT INTO idempotency_keys (api_key_id, key, request_hash, claim_token, created_at)
    VALUES (${apiKeyId}::uuid, ${key}, ${hash}, ${token}::uuid, now())
    ON CONFLICT (api_key_id, key) DO UPDATE
      SET request_hash = EXCLUDED.request_hash, claim_token = EXCLUDED.claim_token, status = NULL, body = NULL,
          created_at = EXCLUDED.created_at
      WHERE idempotency_keys.created_at <= now() - make_interval(secs => ${RETENTION_SECONDS})
         OR (idempotency_keys.status IS NULL
             AND idempotency_keys.request_hash = EXCLUDED.request_hash
             AND idempotency_keys.created_at <= now() - make_interval(secs => ${CLAIM_TIMEOUT_SECONDS}))
    RETURNING claim_token::text`;
  return rows.length === 1;
}

async function stored(apiKeyId: string, key: string): Promise<StoredRow | undefined> {
  const rows = await prisma.$queryRaw<StoredRow[]>`
    SELECT request_hash, status, body FROM idempotency_keys WHERE api_key_id = ${apiKeyId}::uuid AND key = ${key}`;
  return rows[0];
}

function keep(apiKeyId: string, key: string, token: string, status: number, body: string): Promise<number> {
  return prisma.$executeRaw`
    UPDATE idempotency_keys SET status = ${status}, body = ${body}
    WHERE api_key_id = ${apiKeyId}::uuid AND key = ${key} AND claim_token = ${token}::uuid`;
}

function release(apiKeyId: string, key: string, token: string): Promise<number> {
  return prisma.$executeRaw`
    DELETE FROM idempotency_keys WHERE api_key_id = ${apiKeyId}::uuid AND key = ${key} AND claim_token = ${token}::uuid`;
}

/** Deletes every expired row. Called by a claim at most once per PRUNE_EVERY_MS per process; exported for tests. */
export function pruneExpiredIdempotencyKeys(): Promise<number> {
  return prisma.$executeRaw`
    DELETE FROM idempotency_keys WHERE created_at <= now() - make_interval(secs => ${RETENTION_SECONDS})`;
}

let lastPrune = 0;
async function pruneNowAndThen(): Promise<void> {
  const now = Date.now();
  if (now - lastPrune < PRUNE_EVERY_MS) return;
  lastPrune = now;
  await pruneExpiredIdempotencyKeys().catch((err: unknown) => logger.warn({ err }, "pruning idempotency keys failed"));
}

/** Sends a stored answer as it was first sent (the body is the JSON text written then). */
function replay(res: Response, row: StoredRow & { status: number; body: string }): void {
  res.setHeader(REPLAYED_HEADER, "true");
  res.status(row.status).type("application/json").send(row.body);
}

/**
 * Makes the request's answer (the first res.json) be written to the claim, or the claim be released, before the
 * answer is sent. An answer that is not JSON (none today) releases the claim once it is sent.
 */
function recordAnswer(res: Response, apiKeyId: string, key: string, token: string): void {
  const send = res.json.bind(res);
  let answered = false;
  res.json = (body: unknown) => {
    if (answered) return send(body);
    answered = true;
    const status = res.statusCode;
    const write = isKept(status) ? keep(apiKeyId, key, token, status, JSON.stringify(body)) : release(apiKeyId, key, token);
    // If the write fails the answer still goes out; an unwritten claim is abandoned after CLAIM_TIMEOUT_SECONDS.
    write
      .catch((err: unknown) => logger.error({ err, status }, "could not record the answer of an idempotent request"))
      .finally(() => send(body));
    return res;
  };
  res.on("finish", () => {
    if (answered) return;
    answered = true;
    release(apiKeyId, key, token).catch((err: unknown) => logger.error({ err }, "could not release an idempotency key"));
  });
}

/**
 * Reads the body with the route's parsers (same content types, limits and errors as the route, whose own parser
 * then finds it read). False when a parser answered (415).
 */
async function readBody(req: Request, res: Response): Promise<boolean> {
  for (const handler of bodyParsersFor(req.path)) {
    const passed = await new Promise<boolean>((resolve, reject) => {
      handler(req, res, (err?: unknown) => (err ? reject(err) : resolve(true)));
      if (res.headersSent) resolve(false); // it answered without calling next
    });
    if (!passed) return false;
  }
  return true;
}

/** Mounted before the /v1 routes, after authentication. */
export function idempotencyKeys(): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const key = req.headers[IDEMPOTENCY_HEADER.toLowerCase()];
    const viewer = res.locals.context?.viewer;
    if (req.method !== "POST" || key === undefined || !viewer) return next();
    try {
      if (typeof key !== "string" || !VALID_KEY.test(key)) return sendError(res, 400, INVALID_KEY_MESSAGE);
      // The client went away before its body was read (the parser would see none): nothing to compare or to answer.
      // Claiming now would keep a "body must be a JSON object" answer under the key; leave it free for the retry.
      if (req.destroyed || req.socket.destroyed) return;
      if (!(await readBody(req, res))) return;
      const hash = requestHash(req);
      const token = randomUUID();
      await pruneNowAndThen();
      // A row released between our claim and our read (its request got a 5xx) is claimed again.
      for (let attempt = 0; attempt < 3; attempt++) {
        if (await claim(viewer.keyId, key, hash, token)) {
          recordAnswer(res, viewer.keyId, key, token);
          return next();
        }
        const row = await stored(viewer.keyId, key);
        if (!row) continue;
        if (row.request_hash !== hash) return sendError(res, 422, REUSED_MESSAGE);
        if (row.status === null || row.body === null) return sendError(res, 409, IN_PROGRESS_MESSAGE);
        return replay(res, { ...row, status: row.status, body: row.body });
      }
      sendError(res, 409, IN_PROGRESS_MESSAGE);
    } catch (err) {
      next(err);
    }
  };
}
