// Hostile HTTP: malformed paths, oversized bodies and heads get the JSON envelope;
// readiness and liveness; security headers of the API and of the two HTML pages.
import http from "node:http";
import type { AddressInfo } from "node:net";
import request from "supertest";
import { createAppServer } from "../src/http/server";
import { type TestApp, type TestTeam } from "./support/app";
import { teamApp } from "./support/team-app";

let t: TestApp, team: TestTeam;
beforeAll(async () => ({ t, team } = await teamApp()));
afterAll(() => t.close());

const envelope = (status: number, message: string) => ({ error: { message, status } });

describe("a path with a bad percent-escape", () => {
  it.each(["/v1/reports/%ZZ", "/v1/showings/%E0%A4%A", "/v1/reports/%", "/graphql/%ZZ", "/nowhere/%C0%80"])("%s answers 400 Malformed URL", async (path) => {
    const res = await request(t.app).get(path).set(team.auth);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(envelope(400, "Malformed URL"));
    expect(res.headers["x-ratelimit-limit"]).toBeDefined();
  });

  it("on a public page's path too", async () => {
    const res = await request(t.app).get("/docs/assets/%ZZ");
    expect(res.status).toBe(400);
    expect(res.body).toEqual(envelope(400, "Malformed URL"));
  });
});

describe("body limit of 1 MiB", () => {
  const query = "{ me { team { name } } }";
  const padded = (bytes: number) => {
    const base = JSON.stringify({ query, variables: { pad: "" } });
    return JSON.stringify({ query, variables: { pad: "a".repeat(bytes - base.length) } });
  };

  it("holds for /graphql as for REST: 413 with the envelope", async () => {
    const big = padded(1024 * 1024 + 1);
    for (const path of ["/graphql", "/v1/reports"]) {
      const res = await request(t.app).post(path).set(team.auth).set("Content-Type", "application/json").send(big);
      expect(res.status).toBe(413);
      expect(res.body).toEqual(envelope(413, "Request body exceeds the 1 MiB limit"));
    }
  });

  it("lets a /graphql body of exactly 1 MiB through", async () => {
    const res = await request(t.app).post("/graphql").set(team.auth).set("Content-Type", "application/json").send(padded(1024 * 1024));
    expect(res.status).toBe(200);
    expect(res.body.data.me.team.name).toEqual(expect.any(String));
  });

  it("GraphQL still reads ordinary JSON and GET requests", async () => {
    const post = await request(t.app).post("/graphql").set(team.auth).send({ query });
    expect(post.status).toBe(200);
    expect(post.body.errors).toBeUndefined();
    const get = await request(t.app).get("/graphql").query({ query }).set(team.auth).set("Accept", "application/json");
    expect(get.status).toBe(200);
    expect(get.body.errors).toBeUndefined();
  });
});

describe("a request head over 16 KB", () => {
  it("answers 431 with the JSON envelope", async () => {
    const { server } = createAppServer(t.app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const res = await new Promise<{ status: number; type?: string; body: string }>((resolve, reject) => {
        const req = http.get({ host: "127.0.0.1", port, path: "/v1/users/me", headers: { ...team.auth, "X-Padding": "a".repeat(17 * 1024) } }, (r) => {
          let body = "";
          r.on("data", (d) => (body += d));
          r.on("end", () => resolve({ status: r.statusCode!, type: r.headers["content-type"], body }));
        });
        req.on("error", reject);
      });
      expect(res.status).toBe(431);
      expect(res.type).toMatch(/^application\/json/);
      expect(JSON.parse(res.body)).toEqual(envelope(431, "Request header fields too large (limit 16 KB)"));
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("liveness and readiness", () => {
  it("need no key and count against no limit", async () => {
    for (let i = 0; i < 3; i++) {
      const health = await request(t.app).get("/health");
      expect(health.status).toBe(200);
      expect(health.body).toEqual({ status: "ok" });
      expect(health.headers["x-ratelimit-limit"]).toBeUndefined();
      const ready = await request(t.app).get("/ready");
      expect(ready.status).toBe(200);
      expect(ready.body).toEqual({ status: "ready", checks: { database: "ok", redis: process.env.REDIS_URL ? "ok" : "not configured" } });
      expect(ready.headers["x-ratelimit-limit"]).toBeUndefined();
    }
  });
});

describe("security headers", () => {
  it("the JSON API allows no content and no framing", async () => {
    for (const res of [await request(t.app).get("/v1/users/me").set(team.auth), await request(t.app).get("/v1/reports/%ZZ"), await request(t.app).get("/health")]) {
      expect(res.headers["content-security-policy"]).toBe("default-src 'none';base-uri 'none';form-action 'none';frame-ancestors 'none'");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["x-frame-options"]).toBe("SAMEORIGIN");
      expect(res.headers["strict-transport-security"]).toMatch(/max-age=/);
      expect(res.headers["referrer-policy"]).toBe("no-referrer");
      expect(res.headers["x-powered-by"]).toBeUndefined();
    }
  });

  it("/docs may load its own scripts and styles, nothing from elsewhere", async () => {
    const res = await request(t.app).get("/docs");
    expect(res.status).toBe(200);
    const csp = res.headers["content-security-policy"];
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("connect-src 'self'");
    expect(res.text).toMatch(/<script src="\/docs\/assets\/[\d.]+\/swagger-ui-bundle\.js">/);
    // Every script of the page is a file of this server.
    expect(res.text).not.toMatch(/<script(?![^>]*src="\/docs\/)/);
  });

  it("GraphiQL may run exactly its own inline script", async () => {
    const res = await request(t.app).get("/graphql").set("Accept", "text/html");
    expect(res.status).toBe(200);
    const csp: string = res.headers["content-security-policy"];
    const hashes = [...csp.matchAll(/'sha256-([^']+)'/g)].map((m) => m[1]);
    const { createHash } = await import("node:crypto");
    const inline = [...res.text.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(([, body]) => createHash("sha256").update(body).digest("base64"));
    expect(inline.length).toBeGreaterThan(0);
    expect(hashes.sort()).toEqual(inline.sort());
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("worker-src 'self' blob:");
  });
});
