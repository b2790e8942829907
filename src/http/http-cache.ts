// HTTP caching of reads: a GET answer of /graphql (by text, documentId or persisted-query hash) and of REST's reads
// carries an ETag and `Cache-Control: private, no-cache` (the answer depends on the key: never a shared cache), and
// a request whose If-None-Match holds that ETag is answered 304 without building the body. GraphQL GET answers are
// also kept in a response cache shared by every process (Redis when REDIS_URL is set, else this process's LRU).
//
// The ETag is a hash of everything an answer depends on: the team's data version (team_versions, bumped by triggers
// in the transaction of every committed change to the team's row, its reports, their items, webhook endpoints, events
// and deliveries — migrations *_trusted_documents_http_cache and *_team_row_version), the UTC date (valuations and
// similarities count days up to today, so no validator outlives the day it was made on), the key's id, permissions
// and trusted-documents setting, the Accept header and the request's URL (path, query, documentId, variables,
// operationName). It is also the response cache's key, so a change committed by any process makes every older ETag
// and cached answer unreachable on the next request to any process; nothing needs deleting. The version and the date
// are read before the answer is built, so an answer is never labelled with a version or a day newer than its data.
// Auth runs first: a revoked key gets 401, never 304, and the rate-limit headers the auth step set are on the 304
// too. `If-None-Match: *` matches only an answer that exists for the key (RFC 9110 §13.1.2): the request is answered
// as if unconditional, and only a 200 becomes a 304 (an unknown report stays a 404). Answers that show counters
// changing without a committed change of the team's data (usage, rate limits, keys' last use) are not cached: only
// the routes flagged so and the root fields listed in ../schema/cacheable.ts are.
import { createHash } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { Kind, parse } from "graphql";
import { LRUCache } from "lru-cache";
import { config } from "../config";
import { confirmKeyRow } from "../auth/key-check";
import type { Context } from "../context";
import { teamVersion } from "../db/team-version";
import { persistedQueryHash } from "../graphql-documents/apq";
import { apqStore } from "../graphql-documents/apq-store";
import { findDocument, hashOfDocumentId } from "../graphql-documents/documents";
import { cacheableOperation } from "../schema/cacheable";
import { chargeCachedAnswer, chargeNotModified } from "../schema/read-cost";
import { logger } from "../logger";
import { redisClient } from "../redis";

export const CACHE_CONTROL = "private, no-cache";

/** The team's data version (0 before its first tracked change): its validators' first part. */
export { teamVersion };

/** Today's date in UTC (2026-12-02): part of every validator, so none holds past midnight UTC. */
const utcDay = (): string => new Date().toISOString().slice(0, 10);

/** The weak ETag of an answer to `req` for the request's key at the team's data version `version` on `day`. */
function etagAt(req: Request, context: Context, version: string, day: string): string {
  const viewer = context.viewer!;
  const identity = [version, day, viewer.keyId, JSON.stringify(viewer.permissions), viewer.trustedDocumentsOnly ? "trusted" : "", req.headers.accept ?? "", req.originalUrl];
  return `W/"${createHash("sha256").update(identity.join("\n")).digest("base64url").slice(0, 32)}"`;
}

/** The weak ETag of an answer to `req` for the request's key at the team's current version (read now). */
async function etagOf(req: Request, context: Context): Promise<string> {
  const day = utcDay();
  return etagAt(req, context, await teamVersion(context.viewer!.teamId), day);
}

/** Whether If-None-Match names `etag` (weak comparison; a list). `*` is not a tag: see `anyTag`. */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.split(",").some((tag) => opaque(tag) === opaque(etag));
}

/** Whether If-None-Match is `*` (any current answer): true only once the answer is known to exist. */
const anyTag = (header: string | undefined): boolean => !!header && header.split(",").some((tag) => tag.trim() === "*");

/**
 * `If-None-Match: *` on a REST read: the handler answers as it would unconditionally, and a 200 (the resource exists
 * for this key) is sent as a 304 without its body; a 404, 403 or 401 stays what it is.
 */
function notModifiedIfFound(res: Response): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, status: number, ...rest: unknown[]) {
    if (status === 200) {
      status = this.statusCode = 304;
      for (const name of ["Content-Type", "Content-Length", "Content-Encoding"]) this.removeHeader(name);
    }
    return (writeHead as (...args: unknown[]) => Response).call(this, status, ...rest);
  } as Response["writeHead"];
}

/** Sets the ETag and Cache-Control, taken back if the answer turns out not to be a 200 (an error carries neither). */
function setValidators(res: Response, etag: string): void {
  res.setHeader("ETag", etag);
  res.setHeader("Cache-Control", CACHE_CONTROL);
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, status: number, ...rest: unknown[]) {
    if (status !== 200 && status !== 304) {
      this.removeHeader("ETag");
      this.removeHeader("Cache-Control");
    }
    return (writeHead as (...args: unknown[]) => Response).call(this, status, ...rest);
  } as Response["writeHead"];
}

/**
 * The ETag of this GET for its key, after the key is confirmed when the auth step admitted it without reading it
 * (ARCHITECTURE.md "The key check": a row that did not hold gets no 304; the handler runs, its executor answers
 * nothing, and the auth layer answers for the key as it is now). Answers 304 when If-None-Match holds it (true:
 * answered), else sets the validators and returns false.
 */
async function notModified(req: Request, res: Response, context: Context, etag: string): Promise<boolean> {
  if (!matches(req.headers["if-none-match"], etag)) {
    setValidators(res, etag);
    return false;
  }
  if (context.keyCheck && !(context.keyCheck.held ?? (await confirmKeyRow(context.keyCheck)))) return false;
  setValidators(res, etag);
  res.status(304).end();
  return true;
}

/**
 * Labels a 200 with the ETag of the version its own statement read (context.dataVersion), when it read one: an answer
 * the resolvers gave instead carries no ETag (its version was not read in its data's snapshot).
 */
function labelWhenSent(req: Request, res: Response, context: Context): void {
  const day = utcDay(); // before the handler reads the data
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, status: number, ...rest: unknown[]) {
    const version = context.dataVersion?.value;
    if (status === 200 && version !== undefined) {
      this.setHeader("ETag", etagAt(req, context, version, day));
      this.setHeader("Cache-Control", CACHE_CONTROL);
    }
    return (writeHead as (...args: unknown[]) => Response).call(this, status, ...rest);
  } as Response["writeHead"];
}

/**
 * REST: answers a read 304 when the client holds the current answer (true: answered), else labels the answer the
 * handler is about to send with its ETag. Called by the REST route wrapper (src/rest/route.ts) before the handler of
 * each route declared `cacheable`.
 * A conditional request reads the version first, so a match builds nothing; so does any read the resolvers answer.
 * An unconditional read the one-statement path answers (`oneStatement`) costs no statement more: that statement
 * reads the version with its data (src/schema/sql-json/run.ts), and the answer is labelled as it is sent.
 */
export async function restNotModified(req: Request, res: Response, oneStatement = false): Promise<boolean> {
  const context = res.locals.context as Context | undefined;
  if ((req.method !== "GET" && req.method !== "HEAD") || !context?.viewer) return false; // HEAD: the GET's validators
  if (oneStatement && req.headers["if-none-match"] === undefined) {
    context.dataVersion = {};
    labelWhenSent(req, res, context);
    return false;
  }
  if (await notModified(req, res, context, await etagOf(req, context))) return true;
  if (anyTag(req.headers["if-none-match"])) notModifiedIfFound(res);
  return false;
}

// ---- GraphQL GET: the document, whether its answer may be cached, and the response cache ----

const cacheableByText = new LRUCache<string, boolean>({ max: 2_000 });

/** The root fields an operation selects (through fragments too) are all cacheable, and it is a query. */
function cacheableDocument(text: string, operationName: string | undefined): boolean {
  const key = `${operationName ?? ""}\n${text}`;
  const known = cacheableByText.get(key);
  if (known !== undefined) return known;
  let answer: boolean;
  try {
    const document = parse(text, { maxTokens: 10_000 });
    const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
    const operation = operationName ? operations.find((o) => o.name?.value === operationName) : operations.length === 1 ? operations[0] : undefined;
    answer = cacheableOperation(document, operation);
  } catch {
    answer = false; // Yoga answers the error; it is not cached
  }
  cacheableByText.set(key, answer);
  return answer;
}

/**
 * The text a GraphQL GET runs: its `query`, the team's registered document its `documentId` names, or the document
 * its `extensions.persistedQuery` hash names (a registered one, or for a key not limited to registered documents the
 * text kept by automatic persisted queries). Undefined when there is none to run (Yoga answers the request).
 */
async function documentText(req: Request, viewer: { teamId: string; trustedDocumentsOnly?: boolean }): Promise<string | undefined> {
  const { query, documentId, extensions } = req.query;
  if (typeof query === "string") return documentId === undefined ? query : undefined;
  const hash = documentId !== undefined ? hashOfDocumentId(documentId) : persistedHashOf(extensions);
  if (!hash) return undefined;
  const registered = await findDocument(viewer.teamId, hash);
  if (registered !== undefined || documentId !== undefined || viewer.trustedDocumentsOnly) return registered;
  return apqStore().get(viewer.teamId, hash);
}

/** The persisted-query hash of a GET's `extensions` parameter, or null (none, or malformed: Yoga says why). */
function persistedHashOf(extensions: unknown): string | null {
  if (typeof extensions !== "string") return null;
  try {
    return persistedQueryHash(JSON.parse(extensions));
  } catch {
    return null;
  }
}

interface CachedAnswer {
  type: string;
  /** The bytes as sent: kept and written back without decoding (a nested page is ~250 kB). */
  body: Buffer;
}

/** A response cache shared by the processes (Redis) or kept in this one. Failures are misses. */
interface ResponseCache {
  get(key: string): Promise<CachedAnswer | undefined>;
  set(key: string, value: CachedAnswer): Promise<void>;
  close(): Promise<void>;
}

const TTL_SECONDS = 600;
/** Answers larger than this are not kept. */
const MAX_CACHED_BYTES = 1024 * 1024;

function memoryCache(): ResponseCache {
  // A small body may be a slice of Node's shared 8 kB buffer pool, which it keeps alive: counted as the whole pool.
  const lru = new LRUCache<string, CachedAnswer>({ maxSize: 64 * 1024 * 1024, sizeCalculation: (v, k) => v.body.buffer.byteLength + k.length, ttl: TTL_SECONDS * 1000 });
  return { get: async (key) => lru.get(key), set: async (key, value) => void lru.set(key, value), close: async () => lru.clear() };
}

/**
 * Redis holds an answer as its content type, a newline, and the body's bytes: no JSON around it, whose parse and
 * stringify of the escaped body cost a hit ~1 ms of CPU and a miss more (bench/production.ts cache, BENCHMARKS.md
 * "HTTP caching"). A value without the newline (none is written) reads as a miss.
 */
function redisCache(url: string): ResponseCache {
  const client = redisClient(url, { enableAutoPipelining: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  client.on("error", (err) => logger.warn({ err: err.message }, "redis error; the response cache misses meanwhile"));
  const failed = (err: unknown) => logger.warn({ err: (err as Error).message }, "response cache unavailable");
  return {
    get: (key) =>
      client.getBuffer(key).then(
        (value) => {
          const newline = value ? value.indexOf(10) : -1;
          return newline < 0 ? undefined : { type: value!.subarray(0, newline).toString(), body: value!.subarray(newline + 1) };
        },
        (err) => void failed(err),
      ),
    set: (key, value) => client.set(key, Buffer.concat([Buffer.from(`${value.type}\n`), value.body]), "EX", TTL_SECONDS).then(() => undefined, failed),
    close: async () => void (await client.quit().catch(() => client.disconnect())),
  };
}

let shared: ResponseCache | undefined;
const responseCache = (): ResponseCache => (shared ??= config.REDIS_URL ? redisCache(config.REDIS_URL) : memoryCache());

/** Closes the response cache's Redis connection (at shutdown). */
export async function closeResponseCache(): Promise<void> {
  const cache = shared;
  shared = undefined;
  await cache?.close();
}

/** Keeps the 200 answer written through `res` (what Yoga writes) under `key`, when it is no error and not too large. */
function keepAnswer(res: Response, cache: ResponseCache, key: string): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const write = res.write;
  const end = res.end;
  // A text chunk is encoded once, here, and the bytes go both to the socket and to the cache (not encoded twice).
  const collect = (chunk: unknown, encoding: unknown): unknown => {
    if (chunk === undefined || chunk === null || typeof chunk === "function" || size > MAX_CACHED_BYTES) return chunk;
    const buffer = Buffer.isBuffer(chunk) ? chunk : typeof chunk === "string" ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8") : Buffer.from(chunk as Uint8Array);
    size += buffer.length;
    chunks.push(buffer);
    return buffer;
  };
  res.write = function (this: Response, chunk: unknown, ...rest: unknown[]) {
    return (write as (...args: unknown[]) => boolean).call(this, collect(chunk, rest[0]), ...rest);
  } as Response["write"];
  res.end = function (this: Response, chunk?: unknown, ...rest: unknown[]) {
    const sent = collect(chunk, rest[0]);
    const type = String(res.getHeader("content-type") ?? "");
    if (res.statusCode === 200 && size <= MAX_CACHED_BYTES && type.includes("json")) {
      const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
      if (!body.includes('"errors"')) void cache.set(key, { type, body });
    }
    return (end as (...args: unknown[]) => Response).call(this, sent, ...rest);
  } as Response["end"];
}

/**
 * Express middleware before Yoga: a GraphQL GET of a cacheable query is answered 304 when If-None-Match holds its
 * ETag, else from the response cache, else by Yoga, whose answer is kept for the next request of any process.
 */
export function graphqlHttpCache() {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      const context = res.locals.context as Context | undefined;
      // (A key admitted without being read — REST's report reads only — is never answered from here.)
      if (req.method !== "GET" || !context?.viewer || context.keyCheck) return next();
      // A key limited to registered documents sending text is refused by Yoga: nothing to label or keep.
      if (context.viewer.trustedDocumentsOnly && req.query.query !== undefined) return next();
      const text = await documentText(req, context.viewer);
      const operationName = typeof req.query.operationName === "string" ? req.query.operationName : undefined;
      if (text === undefined || !cacheableDocument(text, operationName)) return next();
      const etag = await etagOf(req, context);
      // A 304 costs its floor point; a kept answer what it cost when built (src/schema/read-cost.ts).
      if (await notModified(req, res, context, etag)) return chargeNotModified(context);
      const cache = responseCache();
      // v2: the value format of redisCache (a process of an older build, which read JSON, never reads these keys).
      const key = `prs:response:v2:${context.viewer.teamId}:${etag}`;
      const hit = await cache.get(key);
      // If-None-Match: * is answered 304 only from a kept answer (a 200 without errors: the data exists for the key);
      // otherwise the query runs as if unconditional, and an answer naming an error (an unknown report) is sent.
      if (hit && anyTag(req.headers["if-none-match"])) return void (chargeNotModified(context), res.status(304).end());
      if (hit) {
        const body = await chargeCachedAnswer(context, hit.body);
        if (!Buffer.isBuffer(body)) return void res.status(429).set(body.extensions.http as { headers: Record<string, string> }["headers"]).json({ errors: [body.toJSON()] });
        return void res.status(200).type(hit.type).end(body);
      }
      keepAnswer(res, cache, key);
      next();
    } catch (err) {
      next(err);
    }
  };
}
