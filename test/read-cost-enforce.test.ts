// Reads priced by cost in enforce mode: a request the key's points for this hour cannot pay for is refused whole
// (429 THROTTLED naming the budget, Retry-After; nothing runs, nothing is charged), GraphQL and REST alike; what is
// left still pays for requests that fit. With REDIS_URL, the budget is shared: a second app with a limiter of its
// own (as a second process has) sees what the first spent. docs/api.md "Read cost".
const previous = { mode: process.env.READ_COST_MODE, free: process.env.READ_POINTS_FREE };
process.env.READ_COST_MODE = "enforce";
process.env.READ_POINTS_FREE = "30";

import { randomUUID } from "node:crypto";
import request from "supertest";
import { createRateLimiter } from "../src/auth/rate-limit";
import { buildApp } from "../src/app";
import { createTeam, seedReport, startTestApp, type TestApp, type TestTeam } from "./support/app";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
  for (const [name, value] of [["READ_COST_MODE", previous.mode], ["READ_POINTS_FREE", previous.free]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const gql = (app: TestApp["app"], team: TestTeam, query: string, variables: Record<string, unknown> = {}) =>
  request(app).post("/graphql").set(team.auth).send({ query, variables });

/** 2 reports × (1 + 4 collections × 100 objects): 802 objects, 8 points + the floor + the answer's MiB. */
const PAGE = `query { reports(limit: 2) { items { id comparables { id } showings { id } socialMediaPosts { id } agentInsights { id } } } }`;

describe("read cost, enforce mode", () => {
  it("refuses whole a GraphQL read the hour's points cannot pay for, then lets through what fits", async () => {
    const team = await createTeam({ tier: "free" }); // 30 points an hour here
    await seedReport(team.teamId, "1 Enforce Street");
    const first = await gql(t.app, team, PAGE);
    expect(first.status).toBe(200);
    const price = first.body.extensions.cost.requestedQueryCost;
    expect(price).toBeGreaterThanOrEqual(9);
    let left = 30 - price;
    expect(first.body.extensions.cost.throttleStatus.currentlyAvailable).toBe(left);
    while (left >= price) {
      const more = await gql(t.app, team, PAGE);
      expect(more.status).toBe(200);
      left -= price;
    }
    const refused = await gql(t.app, team, PAGE);
    expect(refused.status).toBe(429);
    expect(refused.body.data).toBeUndefined();
    expect(refused.body.errors).toHaveLength(1);
    expect(refused.body.errors[0].extensions.code).toBe("THROTTLED");
    expect(refused.body.errors[0].message).toMatch(new RegExp(`^Read cost budget exhausted: this request costs ${price} points and ${left} of the key's 30 points for this hour are left`));
    expect(refused.body.errors[0].extensions.cost.throttleStatus).toEqual({ maximumAvailable: 30, currentlyAvailable: left, restoreRate: 0.01 });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    // Nothing was charged: a read at the floor still fits, exactly as many times as points are left.
    for (let i = 0; i < left; i++) {
      const small = await gql(t.app, team, `{ __typename }`);
      expect(small.status).toBe(200);
      expect(small.body.extensions.cost.throttleStatus.currentlyAvailable).toBe(left - i - 1);
    }
    const none = await gql(t.app, team, `{ __typename }`);
    expect(none.status).toBe(429);
    expect(none.body.errors[0].extensions.code).toBe("THROTTLED");
  });

  it("answers a REST read past the budget 429 with a JSON error naming it, X-Cost 0 and Retry-After", async () => {
    const team = await createTeam({ tier: "free" });
    const report = await seedReport(team.teamId, "2 Enforce Street");
    let last = await request(t.app).get(`/v1/reports/${report.id}`).set(team.auth);
    let spent = 0;
    while (last.status === 200) {
      spent += Number(last.headers["x-cost"]);
      last = await request(t.app).get(`/v1/reports/${report.id}`).set(team.auth);
    }
    expect(spent).toBeLessThanOrEqual(30);
    expect(last.status).toBe(429);
    expect(last.body.error.message).toMatch(/^Read cost budget exhausted: this request costs \d+ points and \d+ of the key's 30 points for this hour are left/);
    expect(last.headers["x-cost"]).toBe("0");
    expect(last.headers["x-ratelimit-limit"]).toBe("100");
    expect(Number(last.headers["retry-after"])).toBeGreaterThan(0);
  });

  (process.env.REDIS_URL ? it : it.skip)("shares one budget between two apps with limiters of their own, through Redis", async () => {
    const keyPrefix = `prs:test:${randomUUID()}`;
    const limiters = [createRateLimiter({ redisUrl: process.env.REDIS_URL, keyPrefix }), createRateLimiter({ redisUrl: process.env.REDIS_URL, keyPrefix })];
    try {
      const [a, b] = limiters.map((rateLimiter) => buildApp({ rateLimiter }));
      const team = await createTeam({ tier: "free" });
      await seedReport(team.teamId, "3 Enforce Street");
      const onA = await gql(a, team, PAGE);
      const price = onA.body.extensions.cost.requestedQueryCost;
      const onB = await gql(b, team, PAGE);
      expect(onB.body.extensions.cost.throttleStatus.currentlyAvailable).toBe(30 - 2 * price);
      const small = await gql(a, team, `{ __typename }`);
      expect(small.body.extensions.cost.throttleStatus.currentlyAvailable).toBe(30 - 2 * price - 1);
    } finally {
      await Promise.all(limiters.map((l) => l.close()));
    }
  });
});
