// Trusted documents (docs/api.md "Wave 3 contracts", Trusted documents): a team registers the GraphQL documents its
// apps send — the manifest a GraphQL code generator writes, { "<sha256 hex of the text>": "query …" } (the key may
// also be the document id, "sha256:<hex>") — and clients
// run them by `documentId: "sha256:<hex>"`. Registration only adds (the id is the hash of the text, so an id never
// names another text): a process keeps the documents it has read in an LRU and a miss reads the database, so a
// document registered through any process is found by every process on its next request, with nothing to invalidate.
import { createHash } from "node:crypto";
import type { GraphQLSchema } from "graphql";
import { LRUCache } from "lru-cache";
import { prisma } from "../db";
import { documentRefusal } from "../schema/limits";

export const sha256Hex = (text: string): string => createHash("sha256").update(text).digest("hex");

// A manifest's key: the hash in hex, or the document id itself ("sha256:<hex>"), which is what GraphQL Code
// Generator's client preset writes since version 5 (docs/api.md "Wave 3 contracts", Trusted documents).
const HASH = /^(?:sha256:)?([0-9a-f]{64})$/i;
const DOCUMENT_ID = /^sha256:([0-9a-f]{64})$/i;

/** The hash a `documentId` names ("sha256:<64 hex digits>", lower-cased), or undefined for any other form. */
export const hashOfDocumentId = (documentId: unknown): string | undefined =>
  typeof documentId === "string" ? DOCUMENT_ID.exec(documentId)?.[1].toLowerCase() : undefined;

export interface ManifestEntry {
  hash: string;
  text: string;
}

/**
 * The manifest's entries, or the first problem in words: not an object of strings, an empty one, a key that is not a
 * SHA-256 in hex, a hash that does not match its text, or a document the schema or the query limits refuse (the
 * limit's own message). Each problem names the hash.
 */
export function checkManifest(schema: GraphQLSchema, manifest: unknown): ManifestEntry[] | string {
  if (typeof manifest !== "object" || manifest === null || Array.isArray(manifest)) {
    return 'manifest must be a JSON object of { "<sha256 hex>": "<document>" }';
  }
  const entries = Object.entries(manifest as Record<string, unknown>);
  if (!entries.length) return "manifest must hold at least one document";
  const checked: ManifestEntry[] = [];
  for (const [key, text] of entries) {
    const hex = HASH.exec(key)?.[1];
    if (!hex) return `manifest key ${JSON.stringify(key.slice(0, 80))} is not a SHA-256 hash in hex (64 hex digits, optionally after "sha256:")`;
    if (typeof text !== "string") return `manifest document ${key} must be a string`;
    const hash = hex.toLowerCase();
    if (sha256Hex(text) !== hash) return `manifest document ${key} does not match its hash: the SHA-256 of its text is ${sha256Hex(text)}`;
    const refusal = documentRefusal(schema, text);
    if (refusal) return `manifest document ${key}: ${refusal}`;
    checked.push({ hash, text });
  }
  return checked;
}

/** Stores the documents the team does not hold yet (in the caller's transaction); answers how many were new. */
export async function storeDocuments(
  tx: Pick<typeof prisma, "graphqlDocument">,
  teamId: string,
  entries: ManifestEntry[],
): Promise<{ registered: number; unchanged: number }> {
  const { count } = await tx.graphqlDocument.createMany({ data: entries.map(({ hash, text }) => ({ teamId, hash, text })), skipDuplicates: true });
  return { registered: count, unchanged: entries.length - count };
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
