// Application-level encryption of attendee contact data (names, e-mails, phones) and the keyed hashes ("blind
// indexes") the service matches them by. docs/data-protection.md explains the rules; this module holds the mechanics.
//
// - A stored value is `e1.<key id>.<base64url(iv ‖ ciphertext ‖ GCM tag)>`: AES-256-GCM with a random 96-bit IV per
//   value. The key id is a fingerprint of the key (never the key), so a value names the key that can open it and a
//   rotation (`prs keys rotate-data-key`) knows which values still need the new key.
// - A blind index is HMAC-SHA256 of the *normalised* value (e-mail trimmed and lowercased, phone as +digits) under a
//   key derived from the data key with HKDF, so the database can answer "rows of this e-mail" without holding it.
//   During a rotation rows may still carry the old key's index: lookups ask for every known key's (contactIndexes).
// - Keys: DATA_ENCRYPTION_KEY (32 bytes, base64) is the current key; DATA_ENCRYPTION_KEYS lists old ones (comma-
//   separated base64, each found by its fingerprint). Without DATA_ENCRYPTION_KEY: the embedded database keeps a
//   generated key in its data directory (`prs-data-encryption-key`, beside the data it protects, so a copy of the
//   directory moves with its key); PostgreSQL refuses to start under NODE_ENV=production (src/config.ts) and otherwise
//   warns and uses a development key generated into the project's data/ folder.
import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { LRUCache } from "lru-cache";

export type ContactKind = "email" | "phone";

interface DataKey {
  id: string;
  key: Buffer;
  indexKey: Buffer;
}

export interface Keyring {
  current: DataKey;
  /** Every key by id, the current one included. */
  byId: Map<string, DataKey>;
  /** Where the key came from, for the start-up log and `prs keys` (never the key itself). */
  source: "environment" | "data-directory" | "development-file" | "process";
}

const PREFIX = "e1.";
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The file the embedded database's generated key lives in, inside its data directory. */
export const KEY_FILE_NAME = "prs-data-encryption-key";

/** Decodes a key given as base64 (standard or url-safe); null unless it is exactly 32 bytes. */
export function parseDataKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) return null;
  const key = Buffer.from(trimmed.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  return key.length === 32 ? key : null;
}

/** The key id stored with every value it encrypted: 12 hex characters of a hash of the key. */
export function keyId(key: Buffer): string {
  return createHash("sha256").update("prs data key id\0").update(key).digest("hex").slice(0, 12);
}

function dataKey(key: Buffer): DataKey {
  const indexKey = Buffer.from(hkdfSync("sha256", key, Buffer.alloc(0), "prs attendee blind index", 32));
  return { id: keyId(key), key, indexKey };
}

export function createKeyring(current: Buffer, old: Buffer[] = [], source: Keyring["source"] = "environment"): Keyring {
  const currentKey = dataKey(current);
  const byId = new Map<string, DataKey>();
  for (const k of old) {
    const d = dataKey(k);
    byId.set(d.id, d);
  }
  byId.set(currentKey.id, currentKey);
  return { current: currentKey, byId, source };
}

/** Reads the key in `file`, or writes a new one there first (several processes at once agree on one). */
function keyFromFile(file: string): Buffer {
  try {
    const existing = parseDataKey(readFileSync(file, "utf8"));
    if (existing) return existing;
    throw new Error(`${file} does not hold a 32-byte base64 key`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    writeFileSync(file, `${randomBytes(32).toString("base64")}\n`, { flag: "wx", mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  const key = parseDataKey(readFileSync(file, "utf8"));
  if (!key) throw new Error(`${file} does not hold a 32-byte base64 key`);
  return key;
}

function readIfPresent(file: string): Buffer | null {
  try {
    return parseDataKey(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

export interface KeySettings {
  DATA_ENCRYPTION_KEY?: string;
  DATA_ENCRYPTION_KEYS?: string;
  DATABASE_URL?: string;
  PGLITE_DATA_DIR: string;
}

/** Where the development key of a PostgreSQL database without DATA_ENCRYPTION_KEY is kept (outside the database). */
export const DEVELOPMENT_KEY_FILE = path.join(projectRoot(__dirname), "data", "dev-data-encryption-key");

/**
 * The checkout this module belongs to: the folder above it holding package.json, outside node_modules. Every process
 * of a checkout (the sources through tsx, dist/, or a compiled copy under node_modules/.cache) finds the same one,
 * so they share one development key.
 */
function projectRoot(from: string): string {
  let dir = from.includes(`${path.sep}node_modules${path.sep}`) ? from.slice(0, from.indexOf(`${path.sep}node_modules${path.sep}`)) : from;
  while (!existsSync(path.join(dir, "package.json")) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

/**
 * The keyring the settings describe. Production on PostgreSQL without a key never gets here (src/config.ts refuses
 * to start); `warn` is told when a development key stands in.
 */
export function keyringFromSettings(settings: KeySettings, warn: (message: string) => void = () => {}): Keyring {
  const old = (settings.DATA_ENCRYPTION_KEYS ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const key = parseDataKey(s.includes(":") ? s.slice(s.indexOf(":") + 1) : s);
      if (!key) throw new Error("DATA_ENCRYPTION_KEYS: each key must be 32 bytes, base64");
      return key;
    });
  const embeddedDir = !settings.DATABASE_URL && !settings.PGLITE_DATA_DIR.includes("://") ? path.resolve(settings.PGLITE_DATA_DIR) : null;
  if (settings.DATA_ENCRYPTION_KEY) {
    const current = parseDataKey(settings.DATA_ENCRYPTION_KEY);
    if (!current) throw new Error("DATA_ENCRYPTION_KEY: must be 32 bytes, base64");
    // The embedded database's generated key stays readable after an operator sets one of their own.
    const generated = embeddedDir ? readIfPresent(path.join(embeddedDir, KEY_FILE_NAME)) : null;
    return createKeyring(current, generated ? [...old, generated] : old, "environment");
  }
  if (embeddedDir) return createKeyring(keyFromFile(path.join(embeddedDir, KEY_FILE_NAME)), old, "data-directory");
  if (!settings.DATABASE_URL) return createKeyring(randomBytes(32), old, "process"); // memory:// — gone with the process
  warn(`DATA_ENCRYPTION_KEY is not set: attendee contact data is encrypted with a development key kept in ${DEVELOPMENT_KEY_FILE} (set DATA_ENCRYPTION_KEY; NODE_ENV=production refuses to start without it)`);
  return createKeyring(keyFromFile(DEVELOPMENT_KEY_FILE), old, "development-file");
}

let active: Keyring | null = null;

/**
 * The process's keyring. src/db/ sets it from the validated configuration when it opens the database
 * (configureKeyring); code that runs before that reads the same variables from the environment.
 */
export function keyring(): Keyring {
  active ??= keyringFromSettings(
    {
      DATA_ENCRYPTION_KEY: process.env.DATA_ENCRYPTION_KEY || undefined,
      DATA_ENCRYPTION_KEYS: process.env.DATA_ENCRYPTION_KEYS || undefined,
      DATABASE_URL: process.env.DATABASE_URL || undefined,
      PGLITE_DATA_DIR: process.env.PGLITE_DATA_DIR || path.resolve(__dirname, "..", "..", "data", "pglite"),
    },
    (message) => process.emitWarning(message),
  );
  return active;
}

/** Sets the process's keyring from the configuration, once (the database layer calls it as it opens). */
export function configureKeyring(settings: KeySettings, warn: (message: string) => void): Keyring {
  active ??= keyringFromSettings(settings, warn);
  return active;
}

/** Replaces the process's keyring (the CLI's rotation reads the settings once more; tests). */
export function useKeyring(next: Keyring | null): void {
  active = next;
}

export function isEncrypted(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

/** The key id of a stored value, or null for a value stored before encryption (plain text). */
export function storedKeyId(stored: string): string | null {
  if (!isEncrypted(stored)) return null;
  const end = stored.indexOf(".", PREFIX.length);
  return end < 0 ? null : stored.slice(PREFIX.length, end);
}

export function encryptContact(value: string, ring?: Keyring): string;
export function encryptContact(value: string | null | undefined, ring?: Keyring): string | null;
export function encryptContact(value: string | null | undefined, ring: Keyring = keyring()): string | null {
  if (value === null || value === undefined) return null;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", ring.current.key, iv);
  const body = Buffer.concat([iv, cipher.update(value, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `${PREFIX}${ring.current.id}.${body.toString("base64url")}`;
}

/**
 * Values opened lately, by their stored text (unique: each has its own IV). Opening one costs a cipher's key
 * schedule, ~15 µs; a report's showings are read again and again (BENCHMARKS "Database CPU per request": without it,
 * a fifth of the REST detail's CPU in the service). Entries go after 10 minutes: a value erased from the database
 * is not kept in memory long after.
 */
const opened = new LRUCache<string, string>({ max: 10_000, ttl: 10 * 60_000 });

/** A stored value decoded with the key its id names; plain text (stored before encryption) as it is. */
export function decryptContact(stored: string, ring?: Keyring): string;
export function decryptContact(stored: string | null | undefined, ring?: Keyring): string | null;
export function decryptContact(stored: string | null | undefined, ring: Keyring = keyring()): string | null {
  if (stored === null || stored === undefined) return null;
  if (!isEncrypted(stored)) return stored;
  const id = storedKeyId(stored);
  const key = id ? ring.byId.get(id) : undefined;
  if (!key) throw new Error(`attendee data encrypted with key ${id ?? "?"}, which is neither DATA_ENCRYPTION_KEY nor in DATA_ENCRYPTION_KEYS`);
  const known = opened.get(stored);
  if (known !== undefined) return known;
  const body = Buffer.from(stored.slice(PREFIX.length + id!.length + 1), "base64url");
  if (body.length < IV_BYTES + TAG_BYTES) throw new Error("attendee data: a stored value is cut short");
  const decipher = createDecipheriv("aes-256-gcm", key.key, body.subarray(0, IV_BYTES));
  decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
  const value = Buffer.concat([decipher.update(body.subarray(IV_BYTES, body.length - TAG_BYTES)), decipher.final()]).toString("utf8");
  opened.set(stored, value);
  return value;
}

/** E-mail as matched: trimmed, Unicode-normalised, lowercased; null when nothing is left. */
export function normaliseEmail(value: string | null | undefined): string | null {
  const v = (value ?? "").normalize("NFKC").trim().toLowerCase();
  return v || null;
}

/**
 * Phone as matched, E.164-like: "+" and digits. A number written with "+" or "00" keeps its country code; ten
 * digits are read as a North American number (+1), eleven starting with 1 likewise; anything else as written.
 * Null when it holds no digit.
 */
export function normalisePhone(value: string | null | undefined): string | null {
  const raw = (value ?? "").normalize("NFKC").trim();
  let digits = raw.replace(/\D/g, "");
  if (!digits) return null;
  if (raw.startsWith("+")) return `+${digits}`;
  if (digits.startsWith("00")) return `+${digits.slice(2)}`;
  if (digits.length === 10) digits = `1${digits}`;
  return `+${digits}`;
}

export function normaliseContact(kind: ContactKind, value: string | null | undefined): string | null {
  return kind === "email" ? normaliseEmail(value) : normalisePhone(value);
}

function hmac(key: DataKey, kind: ContactKind, normalised: string): string {
  return createHmac("sha256", key.indexKey).update(`${kind}\0${normalised}`).digest("base64url");
}

/** The blind index of a contact value under the current key (null for a value with nothing to match). */
export function contactIndex(kind: ContactKind, value: string | null | undefined, ring: Keyring = keyring()): string | null {
  const normalised = normaliseContact(kind, value);
  return normalised === null ? null : hmac(ring.current, kind, normalised);
}

/** The blind index under every known key, current first: what a lookup matches while a rotation is under way. */
export function contactIndexes(kind: ContactKind, value: string | null | undefined, ring: Keyring = keyring()): string[] {
  const normalised = normaliseContact(kind, value);
  if (normalised === null) return [];
  return [ring.current, ...[...ring.byId.values()].filter((k) => k !== ring.current)].map((k) => hmac(k, kind, normalised));
}

/** The fields of stored event payloads (webhook_events.data: the showing as REST shows it) kept encrypted. */
export const SEALED_PAYLOAD_FIELDS = ["attendee_name", "attendee_email", "attendee_phone"] as const;

/**
 * An event payload as sent and shown: its sealed fields decrypted. The stored payload keeps them encrypted, so the
 * events table reveals no contact either; a value that cannot be opened (its key dropped) is answered as null.
 */
export function openSealedFields<T>(data: T, ring?: Keyring): T {
  if (!data || typeof data !== "object" || Array.isArray(data)) return data;
  const record = data as Record<string, unknown>;
  if (!SEALED_PAYLOAD_FIELDS.some((f) => typeof record[f] === "string" && isEncrypted(record[f]))) return data;
  const opened: Record<string, unknown> = { ...record };
  for (const f of SEALED_PAYLOAD_FIELDS) {
    const value = record[f];
    if (typeof value !== "string" || !isEncrypted(value)) continue;
    try {
      opened[f] = decryptContact(value, ring ?? keyring());
    } catch {
      opened[f] = null;
    }
  }
  return opened as T;
}
