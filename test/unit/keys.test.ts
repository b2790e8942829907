// API key format and hashing (docs/api.md "API keys, teams and permissions": prs_sk_live_ + 32 alphanumerics; only a SHA-256 is stored).
import { createHash } from "node:crypto";
import { generateApiKey, hashApiKey, isWellFormedKey, KEY_PREFIX, keyDisplayPrefix } from "../../src/auth/keys";
import { DEFAULT_TIER, TIERS, tierLimit } from "../../src/auth/tiers";

describe("API keys", () => {
  it("are prs_sk_live_ and 32 letters or digits, different every time", () => {
    const keys = Array.from({ length: 200 }, generateApiKey);
    for (const key of keys) {
      expect(key).toMatch(/^prs_sk_live_[A-Za-z0-9]{32}$/);
      expect(isWellFormedKey(key)).toBe(true);
    }
    expect(new Set(keys).size).toBe(keys.length);
    // Every character class turns up over 200 keys (6,400 random characters).
    const body = keys.map((k) => k.slice(KEY_PREFIX.length)).join("");
    for (const cls of [/[A-Z]/, /[a-z]/, /[0-9]/]) expect(body).toMatch(cls);
  });

  it.each([
    ["prs_sk_live_" + "a".repeat(31)],
    ["prs_sk_live_" + "a".repeat(33)],
    ["prs_sk_test_" + "a".repeat(32)],
    ["PRS_SK_LIVE_" + "a".repeat(32)],
    ["prs_sk_live_" + "a".repeat(31) + "-"],
    [" prs_sk_live_" + "a".repeat(32)],
    [""],
  ])("%j is not a well-formed key", (key) => {
    expect(isWellFormedKey(key)).toBe(false);
  });

  it("are stored as the hex SHA-256 of the whole key", () => {
    const key = "prs_sk_live_" + "Ab1".repeat(10) + "Zz";
    expect(hashApiKey(key)).toBe(createHash("sha256").update(key).digest("hex"));
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).not.toBe(hashApiKey(key.slice(0, -1) + "y"));
  });

  it("show only the prefix and four more characters again", () => {
    expect(keyDisplayPrefix("prs_sk_live_AbCdEfGh" + "x".repeat(24))).toBe("prs_sk_live_AbCd");
  });
});

describe("rate-limit tiers", () => {
  it("has the four tiers, standard by default, for unknown tiers too", () => {
    expect(Object.keys(TIERS)).toEqual(["free", "standard", "pro", "enterprise"]);
    expect(DEFAULT_TIER).toBe("standard");
    for (const tier of Object.keys(TIERS)) expect(tierLimit(tier)).toBe(TIERS[tier]);
    expect(tierLimit("platinum")).toBe(TIERS.standard);
    expect(TIERS.free).toBeLessThan(TIERS.standard);
    expect(TIERS.standard).toBeLessThan(TIERS.pro);
    expect(TIERS.pro).toBeLessThan(TIERS.enterprise);
  });
});
