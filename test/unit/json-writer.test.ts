// The one-statement path's JSON writer (src/schema/sql-json/write.ts) spells values and dates exactly as
// JSON.stringify and Date#toISOString do — the resolvers' answers are written by those, and both paths must agree.
import fc from "fast-check";
import { isoDate, writer } from "../../src/schema/sql-json/write";

describe("the JSON writer", () => {
  it("writes every date as Date#toISOString does, and throws where it throws", () => {
    const edges = [0, 1, 999, 86_399_999, 86_400_000, 951_782_400_000, 4_107_542_400_000, 253_402_300_799_999, 253_402_300_800_000, -1, -62_198_755_200_000];
    for (const ms of edges) expect(isoDate(ms)).toBe(new Date(ms).toISOString());
    fc.assert(fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (ms) => isoDate(ms) === new Date(ms).toISOString()), { numRuns: 20_000 });
    fc.assert(fc.property(fc.double({ min: 0, max: 4e12, noNaN: true }), (ms) => isoDate(ms) === new Date(ms).toISOString()));
    expect(() => isoDate(8.64e15 + 1)).toThrow(RangeError);
  });

  it("writes every leaf value as JSON.stringify does", () => {
    const leaf = writer(null);
    const value = fc.oneof(fc.string({ unit: "binary" }), fc.string(), fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.jsonValue());
    fc.assert(fc.property(value, (v) => leaf(v) === JSON.stringify(v)), { numRuns: 20_000 });
    expect(leaf(undefined)).toBe("null");
    expect(leaf("line\u2028separator and \ud800 lone")).toBe(JSON.stringify("line\u2028separator and \ud800 lone"));
  });
});
