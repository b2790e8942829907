// The REST route table (src/rest/table.ts) is the one statement of every route: what Express serves, the 405 answers
// and their Allow header, the OpenAPI document and the auth middleware's fast-path choice all come from it.
import request from "supertest";
import { restRouter } from "../src/rest";
import { openApiDocument } from "../src/rest/openapi";
import { ROUTES, readsReports } from "../src/rest/table";
import { committedRouteTable, routeTable } from "../scripts/docs-tables";
import { createTeam, startTestApp, type TestApp } from "./support/app";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const METHODS = ["get", "post", "put", "patch", "delete"] as const;
const byPath = new Map<string, string[]>();
for (const route of ROUTES) byPath.set(route.path, [...(byPath.get(route.path) ?? []), route.method]);
/** A concrete path of a template: every parameter an unknown uuid. */
const concrete = (template: string) => template.replace(/\{[^}]+\}/g, "00000000-0000-4000-8000-000000000000");

it("declares each method and path once, and documents exactly the table's routes", () => {
  const keys = ROUTES.map((route) => `${route.method} ${route.path}`);
  expect(new Set(keys).size).toBe(keys.length);
  const doc = openApiDocument() as unknown as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
  const documented = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`));
  expect(documented.sort()).toEqual([...keys].sort());
  for (const route of ROUTES) expect(doc.paths[route.path][route.method].responses[String(route.status ?? 200)]).toBeDefined();
});

it("lists every route in docs/api.md as the table declares it (npm run docs:tables writes it)", () => {
  expect(committedRouteTable()).toBe(routeTable());
});

it("serves only the table's paths (a router outside the table would show here)", () => {
  const express = (template: string) => template.replace(/^\/v1/, "").replace(/\{([^}]+)\}/g, ":$1");
  const layers = (router: { stack: Array<{ route?: { path: string }; handle: unknown; name?: string }> }): string[] =>
    router.stack.flatMap((layer) => (layer.route ? [layer.route.path] : layer.name === "router" ? layers(layer.handle as never) : []));
  const served = new Set(layers(restRouter() as never));
  expect([...served].sort()).toEqual([...new Set(ROUTES.map((route) => express(route.path)))].sort());
});

it("answers every other method of a path with 405 and the table's methods in Allow", async () => {
  const team = await createTeam();
  for (const [path, methods] of byPath) {
    const other = METHODS.find((method) => !methods.includes(method));
    if (!other) continue;
    const res = await request(t.app)[other](concrete(path)).set(team.auth).send({});
    expect({ path, other, status: res.status, allow: res.headers.allow }).toEqual({ path, other, status: 405, allow: methods.map((m) => m.toUpperCase()).join(", ") });
    expect(res.body.error.message).toBe(`Method not allowed; this path accepts ${methods.map((m) => m.toUpperCase()).join(", ")}`);
  }
});

it("routes every declared method (never the catch-all 404)", async () => {
  const team = await createTeam();
  for (const route of ROUTES) {
    const res = await request(t.app)[route.method](concrete(route.path)).set(team.auth).send({});
    expect(res.body?.error?.message ?? "").not.toMatch(/^Not found: /);
  }
});

it("chooses the fast path's key check from the routes that declare it", () => {
  const req = (method: string, path: string) => ({ method, path }) as never;
  expect(readsReports(req("GET", "/v1/reports"))).toBe(true);
  expect(readsReports(req("GET", "/v1/reports/"))).toBe(true);
  expect(readsReports(req("GET", "/v1/reports/0b0e2c1a-1111-4111-8111-111111111111"))).toBe(true);
  expect(readsReports(req("POST", "/v1/reports"))).toBe(false);
  expect(readsReports(req("GET", "/v1/reports/x/comparables"))).toBe(false);
  expect(readsReports(req("GET", "/v1/showings"))).toBe(false);
  expect(readsReports(req("GET", "/v1/reports/a%20b"))).toBe(false);
});
