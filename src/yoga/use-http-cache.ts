// The GraphQL HTTP cache, a Yoga plugin (what an ETag is made of: src/http/http-cache.ts): a GET of a cacheable query
// is answered 304 when If-None-Match holds its ETag, else from the response cache (./response-cache.ts), else by
// Yoga, whose 200 answer is labelled with the ETag and, when it is JSON without errors, kept for the next request of
// any process. Only queries whose root fields are all in src/schema/cacheable.ts are labelled or kept.
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";
import { Kind, parse } from "graphql";
import type { Plugin } from "graphql-yoga";
import { LRUCache } from "lru-cache";
import type { Context } from "../context";
import { persistedQueryHash } from "../graphql-documents/apq";
import { apqStore } from "../graphql-documents/apq-store";
import { findDocument, hashOfDocumentId } from "../graphql-documents/documents";
import { anyTag, CACHE_CONTROL, etagOf, matches } from "../http/http-cache";
import { cacheableOperation } from "../schema/cacheable";
import { chargeCachedAnswer, chargeNotModified } from "../schema/read-cost";
import { MAX_CACHED_BYTES, responseCache } from "./response-cache";

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
async function documentText(req: ExpressRequest, viewer: { teamId: string; trustedDocumentsOnly?: boolean }): Promise<string | undefined> {
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

/** The Express request and response Yoga was handed (app.ts mounts it on Express). */
interface ServerContext {
  req: ExpressRequest;
  res: ExpressResponse;
}

/** The ETag and cache key of a GET Yoga answers itself, from its request to its response. */
const labelled = new WeakMap<ExpressRequest, { etag: string; key: string }>();

/** Answers a cacheable GET from the cache (a 304, a kept answer) or labels it for onResponse; else leaves it to Yoga. */
async function answerFromCache(
  serverContext: ServerContext,
  endResponse: (response: Response) => void,
  fetchAPI: { Response: typeof Response },
): Promise<void> {
  const { req, res } = serverContext;
  const context = res?.locals.context as Context | undefined;
  // (A key admitted without being read — REST's report reads only, src/auth/key-check.ts — never reaches /graphql.)
  if (req?.method !== "GET" || !context?.viewer || context.riders?.length) return;
  // A key limited to registered documents sending text is refused by Yoga: nothing to label or keep.
  if (context.viewer.trustedDocumentsOnly && req.query.query !== undefined) return;
  const text = await documentText(req, context.viewer);
  const operationName = typeof req.query.operationName === "string" ? req.query.operationName : undefined;
  if (text === undefined || !cacheableDocument(text, operationName)) return;
  const etag = await etagOf(req, context);
  const validators = { ETag: etag, "Cache-Control": CACHE_CONTROL };
  const notModified = () => {
    chargeNotModified(context); // a 304 costs its floor point (src/schema/read-cost.ts)
    endResponse(new fetchAPI.Response(null, { status: 304, headers: validators }));
  };
  if (matches(req.headers["if-none-match"], etag)) return notModified();
  // v2: the value format of the Redis cache (a process of an older build, which read JSON, never reads these keys).
  const key = `prs:response:v2:${context.viewer.teamId}:${etag}`;
  const hit = await responseCache().get(key);
  // If-None-Match: * is answered 304 only from a kept answer (a 200 without errors: the data exists for the key);
  // otherwise the query runs as if unconditional, and an answer naming an error (an unknown report) is sent.
  if (hit && anyTag(req.headers["if-none-match"])) return notModified();
  if (hit) {
    // A kept answer costs what it cost when built.
    const body = await chargeCachedAnswer(context, hit.body);
    if (Buffer.isBuffer(body)) return endResponse(new fetchAPI.Response(body as Uint8Array<ArrayBuffer>, { status: 200, headers: { "Content-Type": hit.type, ...validators } }));
    const headers = (body.extensions.http as { headers: Record<string, string> }).headers;
    return endResponse(fetchAPI.Response.json({ errors: [body.toJSON()] }, { status: 429, headers }));
  }
  labelled.set(req, { etag, key });
}

/** Yoga plugin: the GraphQL GET's 304, its kept answer, or its answer labelled and kept (above). */
export function useHttpCache(): Plugin<object, ServerContext> {
  return {
    async onRequest({ serverContext, endResponse, fetchAPI }) {
      try {
        await answerFromCache(serverContext, endResponse, fetchAPI);
      } catch {
        // The database or Redis failed while looking: the query runs as if uncached, and fails or answers on its own
        // (a database failure as 503 or 504: app.ts maskDatabaseFailures), never as an error of this plugin.
      }
    },
    async onResponse({ serverContext, response }) {
      const label = serverContext.req && labelled.get(serverContext.req);
      if (!label || response.status !== 200) return; // an error carries no validator
      response.headers.set("ETag", label.etag);
      response.headers.set("Cache-Control", CACHE_CONTROL);
      const type = response.headers.get("content-type") ?? "";
      if (!type.includes("json") || Number(response.headers.get("content-length") ?? 0) > MAX_CACHED_BYTES) return;
      const body = await response
        .clone()
        .arrayBuffer()
        .then((bytes) => Buffer.from(bytes))
        .catch(() => undefined); // a body that cannot be read again is not kept
      if (body && body.length <= MAX_CACHED_BYTES && !body.includes('"errors"')) void responseCache().set(label.key, { type, body });
    },
  };
}
