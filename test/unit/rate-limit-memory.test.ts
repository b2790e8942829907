// The in-process rate-limit store (src/auth/rate-limit.ts without REDIS_URL): fixed clock-hour windows, counted at
// once, whether the caller waits (hit) or not (hitHeld).
import { createRateLimiter } from "../../src/auth/rate-limit";

describe("the in-process rate-limit store", () => {
  const limiter = createRateLimiter({});
  const hour = 3_600_000;
  const now = 1_800_000_000_000; // a fixed time, 20 minutes into a clock hour
  const nextHour = (Math.floor(now / hour) + 1) * hour;

  it("counts each key per clock hour with hit and hitHeld alike, and tells when the hour ends", async () => {
    expect(await limiter.hit("key:a", now)).toEqual({ count: 1, resetsAt: nextHour / 1000 });
    expect(limiter.hitHeld("key:a", now)).toEqual({ count: 2, resetsAt: nextHour / 1000 });
    expect((await limiter.hit("key:a", now)).count).toBe(3);
    expect(limiter.hitHeld("key:b", now)?.count).toBe(1);
    expect((await limiter.peek("key:a", now)).count).toBe(3);
    // The next clock hour starts from zero.
    expect(limiter.hitHeld("key:a", nextHour)).toEqual({ count: 1, resetsAt: nextHour / 1000 + 3600 });
  });
});
