// Attendee contact encryption and blind indexes (src/attendees/crypto.ts): round trips, key ids and rotation,
// normalisation, and where a key comes from when DATA_ENCRYPTION_KEY is unset.
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  contactIndex,
  contactIndexes,
  createKeyring,
  decryptContact,
  encryptContact,
  keyringFromSettings,
  KEY_FILE_NAME,
  normaliseEmail,
  normalisePhone,
  storedKeyId,
} from "../../src/attendees/crypto";
import { loadConfig } from "../../src/config";

const key = () => randomBytes(32);

describe("attendee contact encryption", () => {
  const ring = createKeyring(key());

  it("round-trips, never stores the value, and differs every time (random IV)", () => {
    const a = encryptContact("ana@example.com", ring);
    const b = encryptContact("ana@example.com", ring);
    expect(a).not.toContain("ana");
    expect(a).not.toBe(b);
    expect(a.startsWith(`e1.${ring.current.id}.`)).toBe(true);
    expect(decryptContact(a, ring)).toBe("ana@example.com");
    expect(decryptContact("plain text from before", ring)).toBe("plain text from before");
    expect(encryptContact(null, ring)).toBeNull();
    expect(decryptContact(null, ring)).toBeNull();
  });

  it("refuses a tampered value (GCM tag) and a value of an unknown key", () => {
    const stored = encryptContact("Ana Díaz", ring);
    const flipped = stored.slice(0, -3) + (stored.at(-3) === "A" ? "B" : "A") + stored.slice(-2);
    expect(() => decryptContact(flipped, ring)).toThrow();
    expect(() => decryptContact(stored, createKeyring(key()))).toThrow(/DATA_ENCRYPTION_KEYS/);
  });

  it("reads values of an old key after a rotation; indexes of every key are offered", () => {
    const oldKey = key();
    const before = createKeyring(oldKey);
    const stored = encryptContact("+1 555 0100", before);
    const after = createKeyring(key(), [oldKey]);
    expect(storedKeyId(stored)).toBe(before.current.id);
    expect(decryptContact(stored, after)).toBe("+1 555 0100");
    const indexes = contactIndexes("phone", "(555) 555-0100", after);
    expect(indexes).toHaveLength(2);
    expect(indexes[0]).toBe(contactIndex("phone", "555-555-0100", after));
    expect(indexes).toContain(contactIndex("phone", "+1 555 555 0100", before));
  });

  it("matches e-mails and phones as people write them", () => {
    expect(normaliseEmail("  Ana@Example.COM ")).toBe("ana@example.com");
    expect(normaliseEmail("   ")).toBeNull();
    expect(normalisePhone("(555) 555-0100")).toBe("+15555550100");
    expect(normalisePhone("1-555-555-0100")).toBe("+15555550100");
    expect(normalisePhone("+44 20 7946 0958")).toBe("+442079460958");
    expect(normalisePhone("0044 20 7946 0958")).toBe("+442079460958");
    expect(normalisePhone("n/a")).toBeNull();
    expect(contactIndex("email", "ANA@example.com ", ring)).toBe(contactIndex("email", "ana@example.com", ring));
    expect(contactIndex("email", "ana@example.com", ring)).not.toBe(contactIndex("email", "ana@example.com", createKeyring(key())));
    // An e-mail and a phone that normalise alike never share an index.
    expect(contactIndex("email", "+15555550100", ring)).not.toBe(contactIndex("phone", "+15555550100", ring));
  });

  it("the embedded database keeps a generated key in its data directory, and keeps reading it beside a set key", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "prs-key-"));
    try {
      const first = keyringFromSettings({ PGLITE_DATA_DIR: dir });
      const again = keyringFromSettings({ PGLITE_DATA_DIR: dir });
      expect(first.source).toBe("data-directory");
      expect(again.current.id).toBe(first.current.id);
      expect(readFileSync(path.join(dir, KEY_FILE_NAME), "utf8").trim()).toHaveLength(44);
      const stored = encryptContact("ana@example.com", first);
      const set = keyringFromSettings({ PGLITE_DATA_DIR: dir, DATA_ENCRYPTION_KEY: key().toString("base64") });
      expect(set.current.id).not.toBe(first.current.id);
      expect(decryptContact(stored, set)).toBe("ana@example.com");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("PostgreSQL without a key warns (outside production) and refuses to start in production", () => {
    const warnings: string[] = [];
    keyringFromSettings({ PGLITE_DATA_DIR: "x", DATABASE_URL: "postgresql://h/db" }, (m) => warnings.push(m));
    expect(warnings.join()).toMatch(/DATA_ENCRYPTION_KEY is not set/);
    const pg = { DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/prs" };
    expect(() => loadConfig({ ...pg, NODE_ENV: "production" })).toThrow(/DATA_ENCRYPTION_KEY: required with DATABASE_URL when NODE_ENV=production/);
    expect(() => loadConfig({ ...pg, NODE_ENV: "production", DATA_ENCRYPTION_KEY: key().toString("base64") })).not.toThrow();
    expect(() => loadConfig({ ...pg })).not.toThrow();
    expect(() => loadConfig({ DATA_ENCRYPTION_KEY: "too-short" })).toThrow(/DATA_ENCRYPTION_KEY: must be 32 bytes/);
    expect(() => loadConfig({ DATA_ENCRYPTION_KEYS: `${key().toString("base64")},nope` })).toThrow(/DATA_ENCRYPTION_KEYS/);
  });
});
