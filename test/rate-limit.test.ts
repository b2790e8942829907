// The shared hourly budget in Redis (src/auth/rate-limit.ts): busy keys take their points in blocks, and whatever
// the blocks, the processes together never let more requests through than the limit. Two limiters on one Redis
// stand for two processes. Needs REDIS_URL (.ci/run's second pass sets it).
import { randomUUID } from "node:crypto";
import { createRateLimiter, type RateLimiter } from "../src/auth/rate-limit";

const redisUrl = process.env.REDIS_URL;
if (!redisUrl) console.warn("test/rate-limit.test.ts skipped: it needs REDIS_URL (Redis) set, as .ci/run's second pass does.");

/** Two rate limiters on one Redis prefix, as two server processes share a key's budget. */
async function twoProcesses(): Promise<[RateLimiter, RateLimiter]> {
  const keyPrefix = `prs:test:${randomUUID()}`;
  const pair: [RateLimiter, RateLimiter] = [createRateLimiter({ redisUrl, keyPrefix }), createRateLimiter({ redisUrl, keyPrefix })];
  await Promise.all(pair.map((limiter) => limiter.ready()));
  return pair;
}

(redisUrl ? describe : describe.skip)("a key's budget shared through Redis", () => {
  let a: RateLimiter;
  let b: RateLimiter;
  beforeEach(async () => {
    [a, b] = await twoProcesses();
  });
  afterEach(async () => {
    await Promise.all([a.close(), b.close()]);
  });

  it("lets at most the limit through across processes, each request with a place of its own, however they overlap", async () => {
    const limit = 2000; // blocks of up to 20 points
    const hits = Array.from({ length: 2400 }, (_, i) => (i % 3 ? a : b).hit("key:busy", undefined, limit));
    const counts = (await Promise.all(hits)).map((r) => r.count);
    expect(new Set(counts).size).toBe(counts.length);
    const through = counts.filter((c) => c <= limit).length;
    expect(through).toBeLessThanOrEqual(limit);
    // Points one process took and did not use are lost to the other: at most a block each.
    expect(through).toBeGreaterThanOrEqual(limit - 2 * 20);
  });

  it("counts one process's requests exactly, in blocks or not: consecutive counts, and a peek without unused points", async () => {
    const seen: number[] = [];
    for (let i = 0; i < 40; i++) seen.push((await a.hit("key:steady", undefined, 5000)).count);
    expect(seen).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect((await a.peek("key:steady")).count).toBe(40);
  });

  it("hands out the points of a block this process holds without a wait, and none it does not hold", async () => {
    expect(a.hitHeld("key:held")).toBeUndefined(); // no block yet: the request must wait for hit()
    const seen: number[] = [];
    for (let i = 0; i < 8; i++) seen.push((await a.hit("key:held", undefined, 5000)).count); // blocks of 1, 2, 4 and 8 points
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // The 8-point block taken by the 8th hit holds 7 more: counted in order, then none is left.
    for (let i = 9; i <= 15; i++) expect(a.hitHeld("key:held")?.count).toBe(i);
    expect(a.hitHeld("key:held")).toBeUndefined();
    expect(b.hitHeld("key:held")).toBeUndefined(); // the other process holds nothing of it
    expect((await b.hit("key:held", undefined, 5000)).count).toBe(16);
    expect((await a.peek("key:held")).count).toBe(16);
  });

  it("takes one point at a time for a key whose limit is under 200: alternating processes see every count", async () => {
    const seen: number[] = [];
    for (let i = 0; i < 12; i++) seen.push((await (i % 2 ? b : a).hit("key:small", undefined, 60)).count);
    expect(seen).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
  });

  it("keeps a new hour's block when a request of the old hour comes late: the new hour's counts go on without a gap", async () => {
    const hourStart = (Math.floor(Date.now() / 3_600_000) + 1) * 3_600_000;
    const [before, after] = [hourStart - 500, hourStart + 500];
    const counts = async (now: number, n: number) => {
      const seen: number[] = [];
      for (let i = 0; i < n; i++) seen.push((await a.hit("key:turn", now, 5000)).count);
      return seen;
    };
    expect(await counts(before, 10)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(await counts(after, 10)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect((await a.hit("key:turn", before, 5000)).count).toBeGreaterThan(10);
    expect(await counts(after, 10)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect((await a.peek("key:turn", after)).count).toBe(20);
  });

  it("counts requests arriving together past the limit, one point each, all refused", async () => {
    const limit = 300;
    for (let i = 0; i < limit; i++) await a.hit("key:over", undefined, limit);
    const counts = (await Promise.all(Array.from({ length: 50 }, () => a.hit("key:over", undefined, limit)))).map((r) => r.count);
    expect(counts.sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => limit + 1 + i));
  });
});

(redisUrl ? describe : describe.skip)("a request costing several points (hitWithin) in the shared budget", () => {
  let a: RateLimiter;
  let b: RateLimiter;
  beforeEach(async () => {
    [a, b] = await twoProcesses();
  });
  afterEach(async () => {
    await Promise.all([a.close(), b.close()]);
  });

  it("takes all of a request's points or none: with blocks held and single points counted together, never past the limit", async () => {
    const limit = 2000; // blocks of up to 20 points
    const requests = Array.from({ length: 1500 }, (_, i): Promise<number> => {
      const limiter = i % 3 ? a : b;
      if (i % 10) return limiter.hit("key:mixed", undefined, limit).then((r) => (r.count <= limit ? 1 : 0));
      const points = i % 20 ? 5 : 29; // within a block, and more than any block holds
      return limiter.hitWithin("key:mixed", points, limit).then((r) => (r.taken ? (expect(r.count).toBeLessThanOrEqual(limit), points) : 0));
    });
    const through = (await Promise.all(requests)).reduce((sum, points) => sum + points, 0);
    expect(through).toBeLessThanOrEqual(limit);
    expect(through).toBeGreaterThanOrEqual(limit - 2 * 20 - 29);
  });

  it("takes the points from the block this process holds first, in order with single points", async () => {
    for (let i = 0; i < 8; i++) await a.hit("key:block", undefined, 5000); // blocks of 1, 2, 4 and 8: 7 points held
    expect(await a.hitWithin("key:block", 5, 5000)).toEqual({ count: 13, resetsAt: expect.any(Number), taken: true });
    expect(a.hitHeld("key:block")?.count).toBe(14);
    // More than the block holds: its last point, and one more from Redis; the count stays exact.
    expect(await a.hitWithin("key:block", 2, 5000)).toMatchObject({ count: 16, taken: true });
    expect((await b.peek("key:block")).count).toBe(16);
    expect((await a.hit("key:block", undefined, 5000)).count).toBe(17);
  });

  it("keeps the count exact when a request is refused while this process holds part of a block", async () => {
    for (let i = 1; i <= 290; i++) expect((await a.hit("key:part", undefined, 300)).count).toBe(i); // blocks of up to 3
    expect(await a.hitWithin("key:part", 20, 300)).toMatchObject({ count: 290, taken: false });
    expect((await a.hit("key:part", undefined, 300)).count).toBe(291);
    expect((await a.peek("key:part")).count).toBe(291);
    expect(await a.hitWithin("key:part", 9, 300)).toMatchObject({ count: 300, taken: true });
  });

  it("gives back the points of a request the rest of the hour cannot pay for: the count is as before, and what is left stays usable", async () => {
    for (let i = 0; i < 90; i++) await a.hit("key:rest", undefined, 100);
    expect(await a.hitWithin("key:rest", 11, 100)).toMatchObject({ count: 90, taken: false });
    expect(await b.hitWithin("key:rest", 11, 100)).toMatchObject({ count: 90, taken: false });
    expect((await b.peek("key:rest")).count).toBe(90);
    expect(await b.hitWithin("key:rest", 10, 100)).toMatchObject({ count: 100, taken: true });
    expect((await a.hit("key:rest", undefined, 100)).count).toBe(101);
  });

  describe("read-cost points, a busy key's taken in blocks (hitWithin with the key's budget)", () => {
    const CEILING = Number.MAX_SAFE_INTEGER; // measure mode: counted, never refused

    it("counts one process's points exactly while it takes them in blocks; another process's points land after the block", async () => {
      const seen: number[] = [];
      for (let i = 0; i < 30; i++) seen.push((await a.hitWithin("points:steady", 3, CEILING, undefined, 20_000)).count);
      expect(seen).toEqual(Array.from({ length: 30 }, (_, i) => 3 * (i + 1)));
      // a holds the rest of its last block: b's points come after it, and a's peek leaves a's unused points out.
      const other = (await b.hitWithin("points:steady", 3, CEILING, undefined, 20_000)).count;
      expect(other).toBeGreaterThan(93);
      expect(other).toBeLessThanOrEqual(90 + 200 + 3); // a block is at most 1 % of the budget
      expect((await a.peek("points:steady")).count).toBe(93);
    });

    it("keeps one process's counts consecutive when a request costs more than what is left of its block", async () => {
      let sum = 0;
      for (let i = 0; i < 60; i++) {
        const price = (i % 4) + 1; // blocks of 2, 4, 8… points rarely end where a request does
        sum += price;
        expect((await a.hitWithin("points:uneven", price, CEILING, undefined, 20_000)).count).toBe(sum);
      }
    });

    it("takes no block for a key that is not busy, nor for one whose budget is under 200 points", async () => {
      expect((await a.hitWithin("points:quiet", 2, CEILING, undefined, 20_000)).count).toBe(2);
      expect((await b.hitWithin("points:quiet", 2, CEILING, undefined, 20_000)).count).toBe(4);
      for (let i = 0; i < 20; i++) await (i % 2 ? b : a).hitWithin("points:small", 1, CEILING, undefined, 150);
      expect((await b.peek("points:small")).count).toBe(20);
    });

    it("never lets more points through than the budget in enforce mode, however the two processes' blocks overlap", async () => {
      const budget = 3000; // blocks of up to 30 points
      const requests = Array.from({ length: 1200 }, (_, i): Promise<number> => {
        const points = i % 7 ? 1 + (i % 5) : 40; // within a block, and more than any block holds
        return (i % 3 ? a : b).hitWithin("points:enforce", points, budget, undefined, budget).then((r) => (r.taken ? (expect(r.count).toBeLessThanOrEqual(budget), points) : 0));
      });
      const through = (await Promise.all(requests)).reduce((sum, points) => sum + points, 0);
      expect(through).toBeLessThanOrEqual(budget);
      expect(through).toBeGreaterThanOrEqual(budget - 2 * 30 - 40);
    });
  });
});

describe("a request costing several points counted in this process (no Redis)", () => {
  it("takes all of them or none", async () => {
    const limiter = createRateLimiter({});
    await limiter.hit("key:here", undefined, 10);
    expect(await limiter.hitWithin("key:here", 10, 10)).toMatchObject({ count: 1, taken: false });
    expect(await limiter.hitWithin("key:here", 9, 10)).toMatchObject({ count: 10, taken: true });
    expect(limiter.hitHeld("key:here")?.count).toBe(11);
    await limiter.close();
  });
});
