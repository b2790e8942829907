// HTTP caching of reads, the validators both interfaces use: a GET answer of /graphql (by text, documentId or
// persisted-query hash; ../yoga/use-http-cache.ts) and of REST's reads (../rest/http-cache.ts) carries an ETag and
// `Cache-Control: private, no-cache` (the answer depends on the key: never a shared cache), and a request whose
// If-None-Match holds that ETag is answered 304 without building the body. GraphQL GET answers are also kept in a
// response cache shared by every process (../yoga/response-cache.ts).
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
import type { Request } from "express";
import type { Context } from "../context";
import { teamVersion } from "../db/team-version";

export const CACHE_CONTROL = "private, no-cache";

/** Today's date in UTC (2026-12-02): part of every validator, so none holds past midnight UTC. */
export const utcDay = (): string => new Date().toISOString().slice(0, 10);

/** The weak ETag of an answer to `req` for the request's key at the team's data version `version` on `day`. */
export function etagAt(req: Request, context: Context, version: string, day: string): string {
  const viewer = context.viewer!;
  const identity = [version, day, viewer.keyId, JSON.stringify(viewer.permissions), viewer.trustedDocumentsOnly ? "trusted" : "", req.headers.accept ?? "", req.originalUrl];
  return `W/"${createHash("sha256").update(identity.join("\n")).digest("base64url").slice(0, 32)}"`;
}

/** The weak ETag of an answer to `req` for the request's key at the team's current version (read now). */
export async function etagOf(req: Request, context: Context): Promise<string> {
  const day = utcDay();
  return etagAt(req, context, await teamVersion(context.viewer!.teamId), day);
}

/** Whether If-None-Match names `etag` (weak comparison; a list). `*` is not a tag: see `anyTag`. */
export function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.split(",").some((tag) => opaque(tag) === opaque(etag));
}

/** Whether If-None-Match is `*` (any current answer): true only once the answer is known to exist. */
export const anyTag = (header: string | undefined): boolean => !!header && header.split(",").some((tag) => tag.trim() === "*");
