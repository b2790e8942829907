// Trusted documents (docs/api.md "Trusted documents"): a team registers the GraphQL documents its
// apps send — the manifest a GraphQL code generator writes, { "<sha256 hex of the text>": "query …" } (the key may
// also be the document id, "sha256:<hex>") — and clients
// run them by `documentId: "sha256:<hex>"`. Registration only adds (the id is the hash of the text, so an id never
// names another text): a process keeps the documents it has read in an LRU and a miss reads the database, so a
// document registered through any process is found by every process on its next request, with nothing to invalidate.
import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import { prisma } from "../db";

/** The refusal of anything but a registered document for a key limited to those (docs/api.md "Trusted documents"). */
export const TRUSTED_ONLY_MESSAGE = "Permission denied: this key runs registered documents only";

export const sha256Hex = (text: string): string => createHash("sha256").update(text).digest("hex");

// A manifest's key: the hash in hex, or the document id itself ("sha256:<hex>"), which is what GraphQL Code
// Generator's client preset writes since version 5 (docs/api.md "Trusted documents").
const HASH = /^(?:sha256:)?([0-9a-f]{64})$/i;
const DOCUMENT_ID = /^sha256:([0-9a-f]{64})$/i;

/** The hash a `documentId` names ("sha256:<64 hex digits>", lower-cased), or undefined for any other form. */
export const hashOfDocumentId = (documentId: unknown): string | undefined =>
  typeof documentId === "string" ? DOCUMENT_ID.exec(documentId)?.[1].toLowerCase() : undefined;

export interface ManifestEntry {
  hash: string;
  text: string;
}

/** At most this many documents in one registration (docs/api.md "Limits"): more is a 413 naming the cap. */
export const MAX_DOCUMENTS_PER_REQUEST = 500;
/** At most this many documents a team holds, counting what it already holds: more is a 400 naming the cap. */
export const MAX_DOCUMENTS_PER_TEAM = 5_000;
/** Checking documents gives the event loop back to other requests after this long (ms). */
const CHECK_SLICE_MS = 10;

/** Why a manifest is refused: the message, naming the document or the cap, and its HTTP status. */
export interface ManifestRefusal {
  status: 400 | 413;
  message: string;
}

const refused = (message: string, status: 400 | 413 = 400): ManifestRefusal => ({ status, message });
const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The manifest's entries (one per hash), or the first problem: not an object of strings, an empty one, more than
 * MAX_DOCUMENTS_PER_REQUEST documents (413, before any is read), a key that is not a SHA-256 in hex, a hash that
 * does not match its text, or a document the schema or the query limits refuse (the limit's own message). Each
 * problem names the hash. Checking gives the event loop back every CHECK_SLICE_MS, so other requests are answered
 * while a large manifest is checked. `refusal` is the schema's check of one document (src/schema/limits.ts
 * `documentRefusal`, bound to the schema by the caller: this store sits below the schema's layer).
 */
export async function checkManifest(refusal: (text: string) => string | undefined, manifest: unknown): Promise<ManifestEntry[] | ManifestRefusal> {
  if (typeof manifest !== "object" || manifest === null || Array.isArray(manifest)) {
    return refused('manifest must be a JSON object of { "<sha256 hex>": "<document>" }');
  }
  const entries = Object.entries(manifest as Record<string, unknown>);
  if (!entries.length) return refused("manifest must hold at least one document");
  if (entries.length > MAX_DOCUMENTS_PER_REQUEST) {
    const count = entries.length.toLocaleString("en-US");
    return refused(`Too many documents: a registration takes at most ${MAX_DOCUMENTS_PER_REQUEST} documents, this manifest holds ${count}; send it in parts`, 413);
  }
  const checked = new Map<string, ManifestEntry>();
  let slice = performance.now();
  for (const [key, text] of entries) {
    const problem = checkEntry(refusal, key, text);
    if (typeof problem === "string") return refused(problem);
    checked.set(problem.hash, problem);
    if (performance.now() - slice > CHECK_SLICE_MS) {
      await yieldToOthers();
      slice = performance.now();
    }
  }
  return [...checked.values()];
}

/** One manifest entry checked: the entry, or what is wrong with it in words. */
function checkEntry(refusalOf: (text: string) => string | undefined, key: string, text: unknown): ManifestEntry | string {
  const hex = HASH.exec(key)?.[1];
  if (!hex) return `manifest key ${JSON.stringify(key.slice(0, 80))} is not a SHA-256 hash in hex (64 hex digits, optionally after "sha256:")`;
  if (typeof text !== "string") return `manifest document ${key} must be a string`;
  const hash = hex.toLowerCase();
  if (sha256Hex(text) !== hash) return `manifest document ${key} does not match its hash: the SHA-256 of its text is ${sha256Hex(text)}`;
  const refusal = refusalOf(text);
  if (refusal) return `manifest document ${key}: ${refusal}`;
  return { hash, text };
}

/** The team would hold more than MAX_DOCUMENTS_PER_TEAM documents: answered 400 by every caller, nothing stored. */
export class DocumentLimitReached extends Error {
  constructor(held: number, adding: number) {
    const n = (count: number) => count.toLocaleString("en-US");
    super(
      `Document limit reached: a team holds at most ${n(MAX_DOCUMENTS_PER_TEAM)} registered documents; it holds ${n(held)} and this manifest adds ${n(adding)}`,
    );
  }
}

/**
 * Stores the documents the team does not hold yet, in the caller's transaction; answers how many were new. Under a
 * lock of the team's row (one that does not block rows referring to the team) it counts what the team holds and what
 * the manifest adds, and throws DocumentLimitReached past MAX_DOCUMENTS_PER_TEAM, so registrations arriving together
 * are counted one after another. The count and the insert are one statement each, the documents passed as two arrays:
 * Prisma's createMany of 500 rows (2,000 parameters) held PGlite's thread 1–3.7 s, this insert 0.4–0.65 s.
 */
export async function storeDocuments(
  tx: Pick<typeof prisma, "$queryRaw" | "$executeRaw">,
  teamId: string,
  entries: ManifestEntry[],
): Promise<{ registered: number; unchanged: number }> {
  const hashes = entries.map((e) => e.hash);
  await tx.$queryRaw`SELECT 1 FROM teams WHERE id = ${teamId}::uuid FOR NO KEY UPDATE`;
  const [{ held, known }] = await tx.$queryRaw<Array<{ held: number; known: number }>>`
    SELECT count(*)::int AS held, (count(*) FILTER (WHERE hash = ANY(${hashes}::text[])))::int AS known
    FROM graphql_documents WHERE team_id = ${teamId}::uuid`;
  const adding = entries.length - known;
  if (held + adding > MAX_DOCUMENTS_PER_TEAM) throw new DocumentLimitReached(held, adding);
  const registered = await tx.$executeRaw`
    INSERT INTO graphql_documents (team_id, hash, text)
    SELECT ${teamId}::uuid, d.hash, d.text FROM unnest(${hashes}::text[], ${entries.map((e) => e.text)}::text[]) AS d(hash, text)
    ON CONFLICT DO NOTHING`;
  return { registered, unchanged: entries.length - registered };
}

// Documents this process has read, by team and hash. Bounded by their total length.
const known = new LRUCache<string, string>({ maxSize: 32 * 1024 * 1024, sizeCalculation: (text, key) => text.length + key.length });

/** The text of the team's document `hash`, or undefined when the team has not registered it. */
export async function findDocument(teamId: string, hash: string): Promise<string | undefined> {
  const key = `${teamId}:${hash}`;
  const cached = known.get(key);
  if (cached !== undefined) return cached;
  const row = await prisma.graphqlDocument.findUnique({ where: { teamId_hash: { teamId, hash } }, select: { text: true } });
  if (row) known.set(key, row.text);
  return row?.text;
}
