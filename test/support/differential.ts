// The two read engines compared on documents generated from the schema (ARCHITECTURE.md "The two read engines"):
// every root field the one-statement path serves and every field path below it (test/support/served.ts asks the
// planner), with arguments at their edges (from each argument's own rule), aliases, fragments, variables with
// defaults and __typename, on seeded data holding nulls, extremes, empty and unicode strings, collections past their
// limit, more reports than a page holds, and another team's rows; connections with cursors of this team, another
// team's and none. Each document runs as it is (the one-statement
// path must answer it) and with `@include(if: true)` on its root fields (the resolvers answer); data and errors must
// be equal, key order included. A field added to a field table or a collection added to Report is covered here
// without editing this file.
//
// Run whole by the system tier (test/system/sql-json-differential.test.ts, ~25 s) and, reduced, by the fast tier
// (test/sql-json-differential.test.ts): every served field at once with the root's arguments left to their defaults
// and at the widest page, two roots in one document and another team's key — every field path still answered by the
// one-statement path and found equal.
import { getNamedType, isEnumType, isNonNullType, parse, type ExecutionResult, type GraphQLArgument } from "graphql";
import { TEAM_FULL_ACCESS } from "../../src/auth/permissions";
import type { Context } from "../../src/context";
import { prisma } from "../../src/db";
import { schema } from "../../src/schema";
import { execute } from "../../src/schema/engine";
import { MAX_NUMBER } from "../../src/schema/rules";
import { RawData } from "../../src/schema/sql-json/raw";
import { createTeam, startTestApp, type TestApp, type TestTeam } from "./app";
import { cursorPrefix, encodeCursor } from "../../src/schema/cursor";
import type { SqlJsonRoot } from "../../src/schema/sql-json/plan";
import { argAccepts, everyField, leafPaths, literal, selectionAround, servedRoots, type LeafPath, type ServedObject, type ServedRoot } from "./served";

/** The comparison's tests: all of them, or the fast tier's reduced set (see above). */
export function differentialSuite(scope: "full" | "reduced"): void {
  const full = scope === "full";
  let t: TestApp;
  let team: TestTeam;
  let other: TestTeam;
  /** Report ids by what their rows hold. */
  const ids: Record<"nulls" | "extremes" | "many" | "other", string> = { nulls: "", extremes: "", many: "", other: "" };
  const roots = servedRoots(schema);
  /** Cursors of the served connections (after/before): of reports in the middle and at the end, another team's, none. */
  const cursors: string[] = [];
  /** Paths the one-statement path answered at least once, as root.collection….leaf. */
  const answered = new Set<string>();

  /** A context of its own per execution (the engine counts the items an execution builds per context). */
  const contextOf = (of: TestTeam): Context => ({
    viewer: { keyId: "differential", keyPrefix: "prs_sk_live_diff", teamId: of.teamId, permissions: TEAM_FULL_ACCESS, tier: "standard" },
    rateLimit: null,
  });

  const plain = (result: ExecutionResult) => ({
    data: result.data instanceof RawData ? result.data.toJSON() : JSON.parse(JSON.stringify(result.data ?? null)),
    errors: result.errors?.map((e) => ({ message: e.message, path: e.path, code: e.extensions?.code })),
  });

  /**
   * Runs a document (text with `@root` where each root field's directives go) both ways and compares. When the
   * resolvers answer without an error, the one-statement path must have answered (not left it to them).
   */
  async function compare(name: string, text: string, variables: Record<string, unknown> = {}, covers: string[] = []) {
    const run = (include: string) =>
      execute({ schema, document: parse(text.replaceAll("@root", include)), variableValues: variables, contextValue: contextOf(team) });
    const fast = await run("");
    const slow = await run("@include(if: true)");
    try {
      expect(slow.data instanceof RawData).toBe(false);
      const [f, s] = [plain(fast), plain(slow)];
      expect(f).toEqual(s);
      expect(JSON.stringify(f)).toBe(JSON.stringify(s));
      if (!slow.errors) {
        expect(fast.data instanceof RawData).toBe(true);
        for (const path of covers) answered.add(path);
      }
    } catch (err) {
      throw new Error(`${name}\n${text}\n${JSON.stringify(variables)}\n${(err as Error).message}`, { cause: err });
    }
    return plain(slow);
  }

  // ---- arguments from the schema ----

  /** Integers at the edges (of the rules, of a page, of the 105 seeded items): each argument's rule says which are valid. */
  const EDGE_INTS = [-1, 0, 1, 100, 101, 104, 105, 2_147_483_647];

  /** Values of one argument: valid ones (accepted by its rule) and refused ones. */
  function argValues(arg: GraphQLArgument): { valid: unknown[]; refused: unknown[] } {
    const type = getNamedType(arg.type);
    if (isEnumType(type)) return { valid: type.getValues().map((v) => v.value), refused: [] };
    if (type.name === "ID") return { valid: [ids.extremes, ids.nulls, ids.many, ids.other, "00000000-0000-0000-0000-000000000000", "not-a-uuid"], refused: [] };
    if (type.name === "Int") return { valid: EDGE_INTS.filter((v) => argAccepts(arg, v)), refused: EDGE_INTS.filter((v) => !argAccepts(arg, v)) };
    // A connection's cursors: valid ones, and ones the resolver refuses (both engines must give its error).
    if (type.name === "String" && (arg.name === "after" || arg.name === "before")) return { valid: cursors, refused: [] };
    throw new Error(`No values for an argument of type ${type.name}: add them to the differential test`);
  }

  /** The arguments of a field: the base (required ones given, the rest left to their defaults) and one change at a time. */
  function argCases(args: readonly GraphQLArgument[], base: Record<string, unknown>): Array<Record<string, unknown>> {
    const cases = [base];
    for (const arg of args) for (const value of argValues(arg).valid) cases.push({ ...base, [arg.name]: value });
    return cases;
  }

  const baseOf = (root: ServedRoot) =>
    Object.fromEntries(root.field.args.filter((a) => a.defaultValue === undefined && isNonNullType(a.type)).map((a) => [a.name, root.kind === "one" ? ids.extremes : argValues(a).valid[0]]));

  /** `name(a: 1, b: x)` for the given values. */
  function call(field: { name: string; args: readonly GraphQLArgument[] }, values: Record<string, unknown>): string {
    const given = field.args.filter((a) => values[a.name] !== undefined).map((a) => `${a.name}: ${literal(a, values[a.name])}`);
    return given.length ? `${field.name}(${given.join(", ")})` : field.name;
  }

  /** A root field selecting `inner` on its object (on a page: in items, with every page member). */
  function rootSelection(root: ServedRoot, args: Record<string, unknown>, inner: string, key = "") {
    return `${key ? `${key}: ` : ""}${call(root.field, args)} @root ${selectionAround(root, inner)}`;
  }

  /** The largest page a page root takes (its `limit`, a connection's `first`, at the top of its rule), so every seeded report is read. */
  function widest(root: ServedRoot): Record<string, unknown> {
    const base = baseOf(root);
    if (root.kind === "one") return base;
    const limit = root.field.args.find((a) => a.name === "limit" || a.name === "first");
    return limit ? { ...base, limit: Math.max(...argValues(limit).valid.map(Number)) } : base;
  }

  // ---- the data ----

  const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);
  const ODD = `"Quoted" \\ back\\slash \u00e9\u0301 \u4e2d\u6587 \u05e2\u05d1\u05e8\u05d9\u05ea \ud83c\udfe0\ud83d\udc68\u200d\ud83d\udc69 \u2028\u2029 \u0001\t\n`;

  function items(teamId: string, reportId: string, n: number, createdAt: (i: number) => Date) {
    const range = Array.from({ length: n }, (_, i) => i);
    return Promise.all([
      prisma.comparable.createMany({ data: range.map((i) => ({ teamId, reportId, address: `${i} Comp Ave`, price: 1000 * i, sqft: i, adjustments: { a: i }, createdAt: createdAt(i) })) }),
      prisma.showing.createMany({ data: range.map((i) => ({ teamId, reportId, attendeeName: `A${i}`, rating: 1 + (i % 5), createdAt: createdAt(i) })) }),
      prisma.socialMediaPost.createMany({ data: range.map((i) => ({ teamId, reportId, platform: "x", externalId: `x-${i}`, likes: BigInt(i), createdAt: createdAt(i) })) }),
      prisma.agentInsight.createMany({ data: range.map((i) => ({ teamId, reportId, author: "Dana", body: `Insight ${i}`, createdAt: createdAt(i) })) }),
    ]);
  }

  const report = (teamId: string, address: string, extra: Record<string, unknown> = {}) =>
    prisma.report.create({ data: { teamId, address, addressKey: address.toLowerCase(), searchKey: address.toLowerCase(), listingAgent: "Agent", createdBy: "Seed", ...extra } });

  beforeAll(async () => {
    t = await startTestApp();
    team = await createTeam();
    other = await createTeam();
    // Every nullable column null, no collections.
    ids.nulls = (await report(team.teamId, "Nulls", { createdAt: at(5) })).id;
    // Numbers at the top of their rules, empty and unicode strings, dates far apart.
    const extremes = await report(team.teamId, ODD, {
      city: "",
      state: "\u2028",
      zip: "0",
      price: MAX_NUMBER,
      beds: 2_147_483_647,
      baths: 0.5,
      sqft: 2_147_483_647,
      yearBuilt: 1600,
      propertyType: "\ud835\udd18\ud835\udd2b\ud835\udd26",
      status: "published",
      publishedAt: new Date("1970-01-01T00:00:00.000Z"),
      viewsCount: 2_147_483_647,
      savesCount: 0,
      description: "\u00e9".repeat(20000),
      lotSize: 1e-7,
      executiveSummary: "",
      customAgentEmail: "a@example.com",
      primaryColor: "#ABC",
      showComps: false,
      createdAt: at(4),
      comparables: {
        create: [
          { address: ODD, price: MAX_NUMBER, sqft: 1, adjustments: { max: MAX_NUMBER, min: -MAX_NUMBER, "\ud83c\udfe0": 1 }, latitude: -90, longitude: 180, distanceMiles: 0, daysOnMarket: 2_147_483_647, saleDate: new Date("9999-12-31T23:59:59.999Z"), included: false, status: "off_market" },
          { address: "", price: 0, sqft: 2_147_483_647, adjustments: [], baths: 1e-7, lotSize: 0.1 + 0.2 },
          { address: "Zero", price: 199999.99, sqft: 0, adjustments: { nested: { a: 1 }, text: "5", n: 2.5 } },
          { address: "No price", price: null, sqft: 3, adjustments: {} },
        ].map((c, i) => ({ ...c, createdAt: at(i) })),
      },
      showings: {
        create: [
          { attendeeName: "", rating: 5, interested: false, eventType: "open_house" as const, attendeesCount: 0, showingDate: new Date("1970-01-01T00:00:00.001Z"), feedback: ODD, uniqueShowingKey: "\ud83c\udfe0" },
          { rating: 1, interested: true, title: ODD, showingTimeStart: new Date("9999-12-31T23:59:59.999Z") },
        ],
      },
      socialMediaPosts: {
        create: [
          { platform: "instagram", externalId: "ig", likes: 9007199254740991n, comments: 0n, reach: null, caption: "", url: "https://example.com/\u00e9" },
          { platform: "x", externalId: ODD, caption: ODD, postedAt: new Date("2026-03-03T03:03:03.030Z") },
        ],
      },
      agentInsights: { create: [{ author: ODD, body: ODD, title: null, category: "pricing", source: "ai" }, { author: "", body: "b", title: "" }] },
    });
    ids.extremes = extremes.id;
    // Collections past their limit (105 items each), half of them created at the same moment (the order's tie-break).
    ids.many = (await report(team.teamId, "Many", { createdAt: at(3) })).id;
    await items(team.teamId, ids.many, 105, (i) => at(Math.floor(i / 2)));
    // More reports than a page holds, some created at the same moment.
    await prisma.report.createMany({
      data: Array.from({ length: 102 }, (_, i) => ({
        teamId: team.teamId,
        address: `${i} Bulk Street`,
        addressKey: `${i} bulk street`,
        searchKey: `${i} bulk street`,
        listingAgent: "Agent",
        createdBy: "Seed",
        status: i % 3 ? ("draft" as const) : ("published" as const),
        createdAt: at(-Math.floor(i / 3)),
      })),
    });
    // Another team's rows, newer than all of these: never in this team's answers, counts or collections.
    ids.other = (await report(other.teamId, "Elsewhere", { createdAt: at(10_000), status: "published" })).id;
    await items(other.teamId, ids.other, 3, (i) => at(i));
    await prisma.report.createMany({
      data: Array.from({ length: 5 }, (_, i) => ({ teamId: other.teamId, address: `Other ${i}`, addressKey: `o${i}`, searchKey: `o${i}`, listingAgent: "A", createdBy: "B", createdAt: at(20_000 + i) })),
    });
    // Cursors for each served connection: at a report in the middle (one of three created at the same moment), at the
    // oldest, another team's, and text that is no cursor.
    const positioned = async (teamId: string, skip: number) =>
      prisma.report.findFirstOrThrow({ where: { teamId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip, select: { createdAt: true, id: true } });
    const [middle, oldest, elsewhere] = await Promise.all([positioned(team.teamId, 40), positioned(team.teamId, 104), positioned(other.teamId, 2)]);
    for (const list of new Set(roots.map((r) => (r.field.extensions?.sqlJson as SqlJsonRoot).list).filter(Boolean))) {
      cursors.push(encodeCursor(cursorPrefix(list!, team.teamId), middle), encodeCursor(cursorPrefix(list!, team.teamId), oldest), encodeCursor(cursorPrefix(list!, other.teamId), elsewhere));
    }
    cursors.push("not-a-cursor");
  }, 60_000);
  afterAll(() => t.close());

  describe("the schema's served fields", () => {
    it("are found: both root kinds, Report's collections, computed fields", () => {
      expect(roots.map((r) => r.kind).sort()).toEqual(expect.arrayContaining(["one", "page"]));
      for (const root of roots) {
        expect(root.object.leaves.length).toBeGreaterThan(1);
        expect(root.object.collections.length).toBeGreaterThan(0);
      }
    });
  });

  describe.each(roots.map((r) => [r.field.name, r] as const))("%s: both engines answer alike", (_name, root) => {
    const paths = () => leafPaths(root.object);
    const pathName = (p: LeafPath) => [root.field.name, ...p.collections.map((c) => c.name), p.leaf].join(".");

    it(full ? "every served field at once, for each argument at its edges" : "every served field at once, the arguments at their defaults and at the widest page", async () => {
      const all = everyField(root.object);
      // Reduced: the arguments left to their defaults, and the widest page.
      for (const args of full ? argCases(root.field.args, baseOf(root)) : [baseOf(root), widest(root)]) {
        await compare(`every field, ${JSON.stringify(args)}`, `{ ${rootSelection(root, args, all)} }`, {}, paths().map(pathName));
      }
    });

    if (full) it("each field path alone, spelled in turn plainly, aliased, in fragments, twice, with __typename", async () => {
      const args = widest(root);
      for (const [i, path] of paths().entries()) {
        // The leaf, spelled one of six ways; a named fragment is declared on the leaf's own type.
        const fragments: string[] = [];
        const leaf = [
          () => path.leaf,
          () => `k${i}: ${path.leaf}`,
          () => (fragments.push(`fragment F${i} on ${path.type.name} { ${path.leaf} }`), `...F${i}`),
          () => `... on ${path.type.name} { ${path.leaf} }`,
          () => `... { ${path.leaf} }`,
          () => `${path.leaf} ${path.leaf} __typename`,
        ][i % 6]();
        const inner = path.collections.reduceRight((selection, c) => `${c.name} { ${selection} }`, leaf);
        await compare(`path ${pathName(path)}`, `{ ${rootSelection(root, args, inner)} } ${fragments.join(" ")}`, {}, [pathName(path)]);
      }
    });

    if (full) it("root arguments as variables with defaults, given and left out", async () => {
      const args = widest(root);
      // An argument with neither a value here nor a default (a connection's cursors) gets a variable without one.
      const defs = root.field.args.map((a) => {
        const value = args[a.name] ?? a.defaultValue;
        return `$${a.name}: ${a.type.toString().replace(/!$/, "")}${value === undefined ? "" : ` = ${literal(a, value)}`}`;
      });
      const uses = root.field.args.map((a) => `${a.name}: $${a.name}`).join(", ");
      const head = `query(${defs.join(", ")}) { ${root.field.name}(${uses}) @root`;
      const text = `${head} ${selectionAround(root, everyField(root.object))} }`;
      const left = await compare("variables left out", text);
      expect(left.errors).toBeUndefined();
      for (const given of argCases(root.field.args, baseOf(root)).slice(1)) await compare("variables given", text, given);
    });

    if (full) it("each collection's arguments at their edges (literals, variables with defaults), and refused values", async () => {
      const args = root.kind === "one" ? { ...baseOf(root), id: ids.many } : widest(root);
      const walk = (object: ServedObject, wrap: (s: string) => string): Array<[string, (s: string) => string]> =>
        object.collections.flatMap((c) => [[c.name, wrap] as [string, (s: string) => string], ...walk(c.object, (s) => wrap(`${c.name} { ${s} }`))]);
      for (const [name, wrap] of walk(root.object, (s) => s)) {
        const c = (function find(o: ServedObject): ServedObject["collections"][number] | undefined {
          return o.collections.find((x) => x.name === name) ?? o.collections.map((x) => find(x.object)).find(Boolean);
        })(root.object)!;
        const leaves = everyField(c.object);
        const valid = argCases(c.field.args, {});
        const aliased = valid.map((values, i) => `e${i}: ${call(c.field, values)} { ${leaves} }`).join(" ");
        await compare(`${name} at its edges`, `{ ${rootSelection(root, args, wrap(aliased))} }`);
        // The same through variables with defaults: left out, then given.
        const defs = c.field.args.map((a) => `$${a.name}: Int = ${JSON.stringify(argValues(a).valid.at(-1))}`).join(", ");
        const viaVariables = `query(${defs}) { ${rootSelection(root, args, wrap(`${name}(${c.field.args.map((a) => `${a.name}: $${a.name}`).join(", ")}) { ${leaves} }`))} }`;
        await compare(`${name} by variables`, viaVariables);
        const ends = c.field.args.flatMap((a) => [argValues(a).valid[0], argValues(a).valid.at(-1)].map((v) => ({ [a.name]: v })));
        for (const values of ends) await compare(`${name} by variables given`, viaVariables, values);
        for (const arg of c.field.args) {
          for (const value of argValues(arg).refused) {
            const refused = await compare(`${name}(${arg.name}: ${value})`, `{ ${rootSelection(root, args, wrap(`${call(c.field, { [arg.name]: value })} { id }`))} }`);
            expect(refused.errors?.[0].code).toBe("BAD_USER_INPUT");
          }
        }
      }
    });

    it("two roots in one document, aliased, and another team's key sees none of these rows", async () => {
      const all = everyField(root.object);
      const args = widest(root);
      await compare("two roots", `{ a: ${rootSelection(root, args, all)} b: ${rootSelection(root, args, "id __typename")} }`);
      const asOther = await execute({ schema, document: parse(`{ ${rootSelection(root, args, "id").replace("@root", "")} }`), contextValue: contextOf(other) });
      const seen = JSON.stringify(plain(asOther).data);
      for (const id of [ids.extremes, ids.nulls, ids.many]) expect(seen).not.toContain(id);
    });
  });

  describe("coverage", () => {
    it("every served field path was answered by the one-statement path and found equal", () => {
      const expected = roots.flatMap((root) => leafPaths(root.object).map((p) => [root.field.name, ...p.collections.map((c) => c.name), p.leaf].join(".")));
      expect(expected.filter((path) => !answered.has(path))).toEqual([]);
    });
  });
}
