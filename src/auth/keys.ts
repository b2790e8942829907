// API key format and hashing (docs/api.md "API keys, teams and permissions": prs_sk_live_ + 32 alphanumerics; only a SHA-256 is stored).
import { hash, randomInt } from "node:crypto";

export const KEY_PREFIX = "prs_sk_live_";
const KEY_PATTERN = /^prs_sk_live_[A-Za-z0-9]{32}$/;
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

export function generateApiKey(): string {
  let body = "";
  for (let i = 0; i < 32; i++) body += ALPHABET[randomInt(ALPHABET.length)];
  return KEY_PREFIX + body;
}

export const isWellFormedKey = (key: string): boolean => KEY_PATTERN.test(key);
export const hashApiKey = (key: string): string => hash("sha256", key, "hex");
/** The part of a key that may be shown again: `prs_sk_live_` and 4 more characters. */
export const keyDisplayPrefix = (key: string): string => key.slice(0, 16);

/**
 * The rate limiter's name for a key's hourly budget: its own id, or for a key made by a roll its predecessor's
 * budget, so the old and the new key spend one budget during the overlap (docs/api.md "Key roll").
 */
export const rateKey = (key: { id: string; budget_key_id: string | null }): string => `key:${key.budget_key_id ?? key.id}`;
