// Incremental delivery: @defer and @stream answered as multipart/mixed parts (docs/api.md "Incremental delivery"),
// read here by a small multipart reader over fetch, as a client reads them; the parts put together are the answer of
// the same document without the directives; the limits and the read's price count deferred parts in full.
import { prisma } from "../src/db";
import { countStatements, createTeam, isHousekeeping, listening, seedReport, startTestApp, type TestApp, type TestTeam } from "./support/app";

let t: TestApp;
let server: Awaited<ReturnType<typeof listening>>;
let team: TestTeam;

beforeAll(async () => {
  t = await startTestApp();
  server = await listening(t.app);
  team = await createTeam();
  for (let r = 0; r < 3; r++) {
    const report = await seedReport(team.teamId, `${r} Defer Street`, { description: `Report ${r}` });
    await prisma.showing.createMany({
      data: Array.from({ length: 2 }, (_, i) => ({ teamId: team.teamId, reportId: report.id, attendeeName: `Visitor ${r}.${i}`, showingDate: new Date(Date.UTC(2026, 0, 1 + i)), eventType: "showing" as const })),
    });
  }
});
afterAll(async () => {
  await server.close();
  await t.close();
});

interface Part {
  data?: Record<string, unknown>;
  errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
  incremental?: Array<{ data?: Record<string, unknown>; items?: unknown[]; path: Array<string | number> }>;
  hasNext?: boolean;
  extensions?: Record<string, unknown>;
}

/** Reads a multipart/mixed answer part by part as its bytes arrive: each part's JSON body, in order. */
async function multipart(res: Response): Promise<Part[]> {
  const type = res.headers.get("content-type") ?? "";
  const boundary = /boundary="?([^";]+)"?/.exec(type)?.[1];
  if (!type.startsWith("multipart/mixed") || !boundary) throw new Error(`not multipart: ${type} ${await res.text()}`);
  const delimiter = `--${boundary}`;
  const parts: Part[] = [];
  let buffered = "";
  const decoder = new TextDecoder();
  const take = (final: boolean) => {
    for (;;) {
      const start = buffered.indexOf(delimiter);
      const next = start < 0 ? -1 : buffered.indexOf(delimiter, start + delimiter.length);
      if (next < 0) break;
      const chunk = buffered.slice(start + delimiter.length, next);
      buffered = buffered.slice(next);
      const bodyAt = chunk.indexOf("\r\n\r\n");
      if (bodyAt >= 0 && chunk.slice(bodyAt + 4).trim()) parts.push(JSON.parse(chunk.slice(bodyAt + 4)));
    }
    if (final && !buffered.startsWith(`${delimiter}--`)) throw new Error(`the answer did not end with its closing delimiter: ${buffered.slice(0, 200)}`);
  };
  for await (const bytes of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(bytes, { stream: true });
    take(false);
  }
  take(true);
  return parts;
}

const post = (query: string, variables: Record<string, unknown> = {}, accept = "multipart/mixed") =>
  fetch(`${server.base}/graphql`, { method: "POST", headers: { ...team.auth, "Content-Type": "application/json", Accept: accept }, body: JSON.stringify({ query, variables }) });

/** The parts put together: each incremental payload merged at its path (items appended to their list). */
function assemble(parts: Part[]): Record<string, unknown> {
  const data = structuredClone(parts[0].data!) as Record<string, unknown>;
  const at = (path: Array<string | number>) => path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], data);
  for (const part of parts.slice(1)) {
    for (const payload of part.incremental ?? []) {
      if (payload.items) (at(payload.path.slice(0, -1)) as unknown[]).push(...payload.items);
      else Object.assign(at(payload.path) as object, payload.data);
    }
  }
  return data;
}

const FIELDS = `id address description`;
const COLLECTIONS = `showings(limit: 10) { id attendeeName } comparables(limit: 10) { id address }`;

describe("@defer and @stream", () => {
  it("answers a page with its collections deferred: the page first, each report's collections after, the same data in the end", async () => {
    const whole = await post(`{ reports(limit: 3) { items { ${FIELDS} ${COLLECTIONS} } } }`, {}, "application/json");
    expect(whole.status).toBe(200);
    const expected = (await whole.json()) as Part;
    expect((expected.data!.reports as { items: unknown[] }).items).toHaveLength(3);

    const res = await post(`{ reports(limit: 3) { items { ${FIELDS} ... @defer { ${COLLECTIONS} } } } }`);
    expect(res.status).toBe(200);
    const parts = await multipart(res);
    const first = parts[0];
    expect(first.hasNext).toBe(true);
    const firstItems = (first.data!.reports as { items: Array<Record<string, unknown>> }).items;
    expect(firstItems).toHaveLength(3);
    expect(firstItems.every((item) => item.showings === undefined && typeof item.address === "string")).toBe(true);
    expect(parts.at(-1)!.hasNext).toBe(false);
    const deferred = parts.flatMap((p) => p.incremental ?? []);
    expect(deferred.map((d) => d.path).sort()).toEqual([["reports", "items", 0], ["reports", "items", 1], ["reports", "items", 2]]);
    expect(assemble(parts)).toEqual(expected.data);
    // The read's price is that of the whole document, on the first part (deferred fragments are counted in full).
    expect((first.extensions as { cost: { requestedQueryCost: number } }).cost.requestedQueryCost).toBe((expected.extensions as { cost: { requestedQueryCost: number } }).cost.requestedQueryCost);
  });

  it("answers @defer by two statements whatever the page size, with the payloads the resolvers' executor sends", async () => {
    // `if: $yes` (a variable) keeps a document on graphql-tools' executor over the resolvers: the reference.
    const both = (directive: string) => `query${directive.includes("$yes") ? "($yes: Boolean!)" : ""} { reports(limit: 3) { total items { id ...Rest ${directive.replace("ARGS", 'label: "rest"')} } } }
      fragment Rest on Report { address a: showings(limit: 2) { id ... ${directive.replace("ARGS", 'label: "names"')} { attendeeName showingDate } }
        b: showings(limit: 1) { id } ... { description } }`;
    const reads = async (query: string) => {
      const { result, statements } = await countStatements(async () => multipart(await post(query, { yes: true })));
      return { parts: result, statements: statements.filter((sql) => !isHousekeeping(sql) && !/FROM api_keys WHERE key_hash/.test(sql)).length };
    };
    const byStatement = await reads(both("@defer(ARGS)"));
    const byResolvers = await reads(both("@defer(ARGS, if: $yes)"));
    expect(byStatement.statements).toBe(2);
    expect(byResolvers.statements).toBeGreaterThan(2);
    // The same first part, and the same payloads (the executor sends them as the resolvers finish: compared by path).
    const payloads = (parts: Part[]) =>
      parts
        .slice(1)
        .flatMap((p) => p.incremental ?? [])
        .sort((x, y) => JSON.stringify(x.path).localeCompare(JSON.stringify(y.path)));
    expect(byStatement.parts[0].data).toEqual(byResolvers.parts[0].data);
    expect(payloads(byStatement.parts)).toEqual(payloads(byResolvers.parts));
    expect(payloads(byStatement.parts).map((p) => (p as { label?: string }).label).sort()).toEqual([...Array(6).fill("names"), "rest", "rest", "rest"]);
    expect(assemble(byStatement.parts)).toEqual(assemble(byResolvers.parts));
    expect(byStatement.parts.at(-1)!.hasNext).toBe(false);
    // An outer fragment's payload comes before those nested in it.
    const sent = byStatement.parts.flatMap((p) => p.incremental ?? []).map((p) => JSON.stringify(p.path));
    for (const [i, path] of sent.entries()) {
      const outer = JSON.stringify((JSON.parse(path) as unknown[]).slice(0, 3));
      if (path !== outer) expect(sent.indexOf(outer)).toBeLessThan(i);
    }
  });

  it("streams a list after its first items", async () => {
    const res = await post(`{ reports(limit: 3) { items @stream(initialCount: 1) { id address } } }`);
    const parts = await multipart(res);
    expect((parts[0].data!.reports as { items: unknown[] }).items).toHaveLength(1);
    const streamed = parts.flatMap((p) => p.incremental ?? []).flatMap((i) => i.items ?? []);
    expect(streamed).toHaveLength(2);
    const all = await post(`{ reports(limit: 3) { items { id address } } }`, {}, "application/json");
    expect(assemble(parts)).toEqual(((await all.json()) as Part).data);
  });

  it("refuses a negative initialCount with a 400 naming it (found by the fuzz suite: it was a 500)", async () => {
    const res = await post(`{ reports(limit: 3) { items @stream(initialCount: -1) { id } } }`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: Array<{ message: string }> }).errors[0].message).toMatch(/initialCount must be 0 or more/);
  });

  it("refuses before anything is sent a document whose deferred fragment passes the object limit", async () => {
    // The page, and 100 reports × (1 + 5 collections × 100): 50,101 objects, 50,000 of them in the deferred fragment.
    const five = `a: comparables { id } b: comparables { id } showings { id } socialMediaPosts { id } agentInsights { id }`;
    const res = await post(`{ reports(limit: 100) { items { id ... @defer { ${five} } } } }`);
    const text = await res.text();
    expect(text).toContain("Query too complex: it can return 50101 objects, the limit is 50000");
    expect(text).toContain("QUERY_TOO_COMPLEX");
    expect(text).not.toContain('"hasNext":true');
    expect(text).not.toContain('"data"');
  });

  it("refuses @defer on a mutation's root field and @stream on a field that is not a list, naming the rule", async () => {
    const root = await (await post(`mutation { ... @defer { createReport(input: { address: "9 Root Street" }) { id } } }`)).text();
    expect(root).toMatch(/[Dd]efer.*root/);
    expect(root).not.toContain('"data"');
    const notList = await (await post(`{ reports(limit: 1) @stream { total } }`)).text();
    expect(notList).toMatch(/[Ss]tream.*list/);
    expect(await prisma.report.count({ where: { teamId: team.teamId, address: "9 Root Street" } })).toBe(0);
  });

  it("answers a client that accepts only JSON 406 with a JSON error saying how to ask for parts", async () => {
    const res = await post(`{ reports(limit: 1) { items { id ... @defer { address } } } }`, {}, "application/json");
    expect(res.status).toBe(406);
    expect(await res.json()).toEqual({
      errors: [
        {
          message: "@defer and @stream answer in parts: send Accept: multipart/mixed (or text/event-stream)",
          extensions: { code: "NOT_ACCEPTABLE", status: 406 },
        },
      ],
    });
  });
});
