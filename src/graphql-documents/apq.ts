// Automatic persisted queries (docs/api.md "Automatic persisted queries"), Apollo's form: a request may send
// `extensions.persistedQuery { version: 1, sha256Hash }` instead of its query text; the text is the team's document
// of that hash — a registered (trusted) document first, else one a client of the team sent earlier with its hash
// (./apq-store.ts). A miss answers PersistedQueryNotFound, and the client sends the query with its hash, which keeps
// it. A key limited to trusted documents runs registered documents only: its hash names a registered document or
// the request is refused, and nothing it sends is kept. Runs over HTTP (src/yoga/use-automatic-persisted-queries.ts,
// before the trusted-document rules of src/yoga/use-trusted-documents.ts) and over WebSocket (src/yoga/websocket.ts
// calls resolvePersistedQuery).
import { GraphQLError } from "graphql";
import type { Viewer } from "../context";
import { APQ_MAX_TEXT, apqStore } from "./apq-store";
import { findDocument, sha256Hex, TRUSTED_ONLY_MESSAGE } from "./documents";

const HASH = /^[0-9a-f]{64}$/;

export const refusal = (message: string, status: number, code: string) => new GraphQLError(message, { extensions: { code, status, http: { status } } });

/** The persisted-query hash a request's extensions carry (lower-cased); null when it carries none; a refusal when malformed. */
export function persistedQueryHash(extensions: unknown): string | null {
  const persisted = (extensions as { persistedQuery?: unknown } | null | undefined)?.persistedQuery;
  if (persisted === undefined || persisted === null) return null;
  const { version, sha256Hash } = (typeof persisted === "object" && !Array.isArray(persisted) ? persisted : {}) as { version?: unknown; sha256Hash?: unknown };
  if (version !== 1) throw refusal("extensions.persistedQuery.version must be 1 (the only version of automatic persisted queries)", 400, "BAD_REQUEST");
  const hash = typeof sha256Hash === "string" ? sha256Hash.toLowerCase() : "";
  if (!HASH.test(hash)) throw refusal("extensions.persistedQuery.sha256Hash must be the 64 hex digits of the query's SHA-256", 400, "BAD_REQUEST");
  return hash;
}

/** What a persisted query resolves to: the text to run, and whether it is a registered (trusted) document. */
export interface Resolved {
  query: string;
  registered: boolean;
}

/**
 * The document a request with a persisted-query hash runs, for `viewer`'s team: the registered document of that hash,
 * else (a key not limited to registered documents) the text sent with it — kept for the next request — or the one
 * kept before. Throws the refusal: PersistedQueryNotFound (a miss), a hash that is not the text's, or a key limited to
 * registered documents naming another.
 */
export async function resolvePersistedQuery(viewer: Viewer, hash: string, query: unknown): Promise<Resolved> {
  const sent = typeof query === "string" && query !== "" ? query : undefined;
  if (sent !== undefined && sha256Hex(sent) !== hash) {
    throw refusal("provided sha does not match query: extensions.persistedQuery.sha256Hash must be the SHA-256 of the query text", 400, "PERSISTED_QUERY_HASH_MISMATCH");
  }
  const registered = await findDocument(viewer.teamId, hash);
  if (registered !== undefined) return { query: registered, registered: true };
  if (viewer.trustedDocumentsOnly) {
    if (sent !== undefined) throw refusal(TRUSTED_ONLY_MESSAGE, 403, "FORBIDDEN");
    throw refusal(`PersistedQueryNotFound: ${hash} is not a registered document of this team, and this key runs registered documents only`, 400, "PERSISTED_QUERY_NOT_FOUND");
  }
  const store = apqStore();
  if (sent !== undefined) {
    if (sent.length <= APQ_MAX_TEXT) await store.set(viewer.teamId, hash, sent);
    return { query: sent, registered: false };
  }
  const kept = await store.get(viewer.teamId, hash);
  if (kept === undefined) throw refusal("PersistedQueryNotFound", 200, "PERSISTED_QUERY_NOT_FOUND");
  return { query: kept, registered: false };
}
