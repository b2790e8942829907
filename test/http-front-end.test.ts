// What browser apps and support need from every response: CORS (preflights without a key or a limit),
// X-Request-Id, and the index at /.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import express from "express";
import request from "supertest";
import { dashboardRouter } from "../src/http/dashboard";
import { crossOrigin } from "../src/http/requests";
import { createTeam, type TestApp, type TestTeam } from "./support/app";
import { teamApp } from "./support/team-app";

let t: TestApp, team: TestTeam;
beforeAll(async () => ({ t, team } = await teamApp()));
afterAll(() => t.close());

const ORIGIN = "http://localhost:5173";

describe("CORS", () => {
  it("answers preflights to REST and GraphQL without a key, allowing the headers a client sends", async () => {
    for (const path of ["/v1/reports", "/graphql", "/v1/reports/x/comparables"]) {
      const res = await request(t.app)
        .options(path)
        .set("Origin", ORIGIN)
        .set("Access-Control-Request-Method", "POST")
        .set("Access-Control-Request-Headers", "authorization,content-type,idempotency-key");
      expect(res.status).toBe(204);
      expect(res.headers["access-control-allow-origin"]).toBe("*");
      expect(res.headers["access-control-allow-methods"]).toContain("POST");
      expect(res.headers["access-control-allow-headers"]).toBe("Authorization,Content-Type,Idempotency-Key,X-Request-Id,If-None-Match,Last-Event-ID");
      expect(res.headers["x-ratelimit-limit"]).toBeUndefined(); // not counted
    }
  });

  it("lets an app on another origin revalidate with the ETag it reads and resume a live stream", async () => {
    const { auth } = await createTeam();
    const first = await request(t.app).get("/v1/reports").set("Origin", ORIGIN).set(auth);
    expect(first.status).toBe(200);
    expect(first.headers["access-control-expose-headers"]?.split(",")).toContain("ETag");
    const again = await request(t.app).get("/v1/reports").set("Origin", ORIGIN).set(auth).set("If-None-Match", first.headers.etag);
    expect(again.status).toBe(304);
    const preflight = await request(t.app)
      .options("/graphql")
      .set("Origin", ORIGIN)
      .set("Access-Control-Request-Method", "GET")
      .set("Access-Control-Request-Headers", "authorization,if-none-match,last-event-id");
    expect(preflight.status).toBe(204);
    expect(preflight.headers["access-control-allow-headers"]).toMatch(/If-None-Match.*Last-Event-ID/);
  });

  it("does not spend the anonymous budget: after many preflights and keyless requests a wrong key still gets its 401", async () => {
    for (let i = 0; i < 70; i++) {
      await request(t.app).options("/graphql").set("Origin", ORIGIN).set("Access-Control-Request-Method", "POST").expect(204);
      // What a GraphiQL tab without a key sends: its schema request.
      await request(t.app).post("/graphql").set("Origin", ORIGIN).send({ query: "{ __schema { queryType { name } } }" }).expect(401);
    }
    const wrong = await request(t.app).get("/v1/users/me").set("Authorization", "Bearer prs_sk_live_00000000000000000000000000000000");
    expect(wrong.status).toBe(401);
  });

  it("lets a page on another origin read the rate-limit and request-id headers of REST and GraphQL answers", async () => {
    const rest = await request(t.app).get("/v1/users/me").set(team.auth).set("Origin", ORIGIN);
    const graphql = await request(t.app).post("/graphql").set(team.auth).set("Origin", ORIGIN).send({ query: "{ me { team { name } } }" });
    for (const res of [rest, graphql]) {
      expect(res.status).toBe(200);
      expect(res.headers["access-control-allow-origin"]).toBe("*");
      const exposed = res.headers["access-control-expose-headers"].split(",");
      expect(exposed).toEqual(expect.arrayContaining(["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "Retry-After", "X-Request-Id"]));
    }
  });

  it("allows only the listed origins when CORS_ORIGINS lists them", async () => {
    const app = express().use(crossOrigin(["https://app.example.com", ORIGIN])).get("/x", (_req, res) => void res.json({}));
    const allowed = await request(app).get("/x").set("Origin", ORIGIN);
    expect(allowed.headers["access-control-allow-origin"]).toBe(ORIGIN);
    const other = await request(app).get("/x").set("Origin", "https://evil.example");
    expect(other.headers["access-control-allow-origin"]).toBeUndefined();
  });
});

describe("X-Request-Id", () => {
  it("is on every answer: the client's when well formed, else a new UUID", async () => {
    const mine = await request(t.app).get("/v1/users/me").set(team.auth).set("X-Request-Id", "trace-42.a:b");
    expect(mine.headers["x-request-id"]).toBe("trace-42.a:b");
    for (const res of [
      await request(t.app).get("/v1/nothing"),
      await request(t.app).get("/health"),
      await request(t.app).get("/v1/users/me").set(team.auth).set("X-Request-Id", "has spaces"),
      await request(t.app).get("/v1/users/me").set(team.auth).set("X-Request-Id", "x".repeat(201)),
    ]) {
      expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });
});

it("answers GET / without a key with where everything is", async () => {
  const res = await request(t.app).get("/");
  expect(res.status).toBe(200);
  expect(res.body.links).toEqual({ rest: "/v1", docs: "/docs", dashboard: "/dashboard", openapi: "/v1/openapi.json", graphql: "/graphql", health: "/health", ready: "/ready" });
});

it("answers the key-less paths without a key, in any letter case, and nothing next to them", async () => {
  for (const path of ["/health", "/HEALTH", "/ready", "/docs", "/Docs/init.js", "/v1/openapi.json", "/V1/OpenAPI.json"]) {
    expect([path, (await request(t.app).get(path)).status]).toEqual([path, 200]);
  }
  const page = await request(t.app).get("/R/not-a-token"); // a share page's own "not found" page, not the API's 401
  expect([page.status, page.headers["content-type"]]).toEqual([404, expect.stringMatching(/^text\/html/)]);
  // Paths that only begin like a key-less part's are the API's: a key is asked for.
  for (const path of ["/healthz", "/docsx", "/v1/openapi.jsonx", "/robots.txt", "/dashboards"]) {
    expect([path, (await request(t.app).get(path)).status]).toEqual([path, 401]);
  }
});

it("refuses a GraphQL request without a valid key with a GraphQL error (what GraphiQL can show), REST with its envelope", async () => {
  const graphql = await request(t.app).post("/graphql").send({ query: "{ me { team { name } } }" });
  expect(graphql.status).toBe(401);
  expect(graphql.body).toEqual({ errors: [{ message: "Invalid API key", extensions: { code: "UNAUTHENTICATED", status: 401 } }] });
  const rest = await request(t.app).get("/v1/users/me");
  expect(rest.body).toEqual({ error: { message: "Invalid API key", status: 401 } });
});

it("compresses answers for clients that accept it, and lets browsers revalidate the GraphiQL page by its ETag", async () => {
  const page = await request(t.app).get("/graphql").set("Accept", "text/html").set("Accept-Encoding", "gzip");
  expect(page.status).toBe(200);
  expect(page.headers["content-encoding"]).toBe("gzip");
  expect(page.headers["cache-control"]).toBe("no-cache");
  expect(page.text).toContain("GraphiQL");
  const again = await request(t.app).get("/graphql").set("Accept", "text/html").set("If-None-Match", page.headers.etag);
  expect(again.status).toBe(304);
  const json = await request(t.app).get("/v1/openapi.json").set("Accept-Encoding", "gzip");
  expect(json.headers["content-encoding"]).toBe("gzip");
  expect(json.body.openapi).toBe("3.1.0");
});

describe("/dashboard (the team dashboard's static files; test/system/dashboard.test.ts drives the real build in Chromium)", () => {
  let dir: string;
  beforeAll(() => void (dir = mkdtempSync(path.join(os.tmpdir(), "prs-dashboard-"))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const app = () => express().use(dashboardRouter(dir));

  it("answers 503 with a clear message while the dashboard is not built", async () => {
    const res = await request(app()).get("/dashboard/");
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ error: { message: "The dashboard is not built: run `npm run dashboard:build`", status: 503 } });
  });

  it("serves the page without a key under a policy that forbids inline scripts, and its hashed assets for a year", async () => {
    mkdirSync(path.join(dir, "assets"), { recursive: true });
    writeFileSync(path.join(dir, "index.html"), '<!doctype html><script type="module" src="/dashboard/assets/index-abc.js"></script>');
    writeFileSync(path.join(dir, "assets", "index-abc.js"), "export {};");
    for (const url of ["/dashboard", "/dashboard/"]) {
      const page = await request(app()).get(url);
      expect(page.status).toBe(200);
      expect(page.headers["cache-control"]).toBe("no-cache");
      const policy = page.headers["content-security-policy"];
      expect(policy).toContain("script-src 'self'");
      expect(policy).toContain("connect-src 'self'");
      expect(policy).not.toContain("unsafe-inline");
    }
    const asset = await request(app()).get("/dashboard/assets/index-abc.js");
    expect(asset.status).toBe(200);
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect((await request(app()).get("/dashboard/assets/nope.js")).body).toEqual({ error: { message: "Not found: GET /dashboard/assets/nope.js", status: 404 } });
    expect((await request(app()).post("/dashboard/")).status).toBe(405);
  });

  it("is served by the app before authentication (no key, no rate-limit count)", async () => {
    const res = await request(t.app).get("/dashboard/");
    expect([200, 503]).toContain(res.status);
    expect(res.headers["x-ratelimit-limit"]).toBeUndefined();
  });
});
