// Race pairs: a write to a report sent at the same moment as the report's delete. Every write operation of the
// document that takes a report (its id in the path or the body, or an item the report holds) is raced, with a valid
// body generated from its schema, once or twice, against a delete sent 0 to 5 ms later. Each answer is below 500 (a
// loser's 404 says what was not found) with the REST envelope, the other team's rows do not change, and once all
// have answered no row of any table points at the deleted report.
import fc from "fast-check";
import { prisma } from "../../src/db";
import { validArb } from "./arbitraries";
import type { Answer, Sent } from "./client";
import { describe, FuzzFailure, SURVEY, type Failure, type Prepared, type World } from "./harness";
import { BOUNDARY, multipartText, type Operation } from "./rest";
import { changedTables } from "./store";
import { isObj, Ref, toJsonText, type Val } from "./values";

/**
 * How to add an item of a table to a report through the API (the racers that name one need it), given the ids made
 * so far for the path's earlier parameters (a sign-in link belongs to the showing made before it).
 */
const ITEM_CREATORS: Record<string, (reportId: string, ids: Record<string, string>, world: World) => { sent: Omit<Sent, "headers"> & { headers?: Record<string, string> }; id: (json: any) => string }> = {
  showings: (reportId) => ({ sent: { method: "POST", path: "/v1/showings", body: JSON.stringify({ report_id: reportId }) }, id: (json) => json.data.id }),
  comparables: (reportId) => ({ sent: { method: "POST", path: `/v1/reports/${reportId}/comparables`, body: '{"address":"1 Race Ave"}' }, id: (json) => json.data.id }),
  agent_insights: (reportId) => ({ sent: { method: "POST", path: `/v1/reports/${reportId}/insights`, body: '{"body":"Raced"}' }, id: (json) => json.data.id }),
  social_media_posts: (reportId) => ({
    sent: { method: "POST", path: `/v1/reports/${reportId}/social-posts/import`, body: '{"posts":[{"platform":"x","external_id":"raced"}]}' },
    id: (json) => json.data.results[0].id,
  }),
  share_links: (reportId) => ({ sent: { method: "POST", path: `/v1/reports/${reportId}/share-links`, body: '{"label":"Raced"}' }, id: (json) => json.data.id }),
  sign_in_links: (_reportId, ids) => ({ sent: { method: "POST", path: `/v1/showings/${ids.showings}/sign-in-links`, body: '{"label":"Raced"}' }, id: (json) => json.data.id }),
  // A photo of the report, or of the comparable made before it when the path names one.
  photos: (reportId, ids, world) => ({ sent: photoUpload(world, `/v1/reports/${reportId}${ids.comparables ? `/comparables/${ids.comparables}` : ""}/photos`), id: (json) => json.data.id }),
};

/** An upload of a 1×1 PNG to a photos path (multipart, its bytes sent as they are). */
const photoUpload = (world: World, path: string) => ({
  method: "POST",
  path,
  headers: { "Content-Type": `multipart/form-data; boundary=${BOUNDARY}` },
  body: multipartText(world, { file: "png", alt: "Raced", position: null }),
  encoding: "latin1" as const,
});

export interface RaceCase {
  op: Operation;
  body: Val | undefined;
  copies: number;
  delayMs: number;
}

/** The tables with a foreign key to reports.id, and the column holding it (from the catalog: new tables count too). */
async function reportReferences(): Promise<Array<{ table: string; column: string }>> {
  return prisma.$queryRaw`
    SELECT c.conrelid::regclass::text AS "table", a.attname AS "column"
    FROM pg_constraint c
    CROSS JOIN LATERAL unnest(c.conkey, c.confkey) AS k(col, refcol)
    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.col
    JOIN pg_attribute r ON r.attrelid = c.confrelid AND r.attnum = k.refcol
    WHERE c.contype = 'f' AND c.confrelid = 'reports'::regclass AND r.attname = 'id'`;
}

/** The documented writes that take a report: by reportId in the path, report_id in the body, or an item of one. */
export async function racingOps(world: World, ops: Operation[]): Promise<Operation[]> {
  const itemTables = new Set((await reportReferences()).map((r) => r.table));
  const body = (op: Operation) => world.oracle.deref(op.body ?? {});
  const racing = ops.filter(
    (op) =>
      !op.undocumented &&
      op.method !== "GET" &&
      (op.params.some((p) => p.name === "reportId" || itemTables.has(world.tableFor(p.name) ?? "")) || isObj(body(op).properties) && "report_id" in body(op).properties),
  );
  for (const op of racing) {
    for (const p of op.params.filter((x) => x.in === "path" && x.name !== "reportId")) {
      if (!ITEM_CREATORS[world.tableFor(p.name) ?? ""]) throw new Error(`races: no ITEM_CREATORS entry for ${p.name} of ${op.method} ${op.template}`);
    }
  }
  return racing;
}

export const raceCaseArb = (world: World, racing: Operation[]): fc.Arbitrary<RaceCase> =>
  fc.oneof(
    ...racing.map((op) =>
      fc.record({
        op: fc.constant(op),
        body: op.body ? validArb(op.body, "body", world.oracle.deref) : fc.constant(undefined),
        copies: fc.integer({ min: 1, max: 2 }),
        delayMs: fc.integer({ min: 0, max: 5 }),
      }),
    ),
  );

/** Sends one race and checks every answer and what is left. */
export async function runRace(world: World, c: RaceCase): Promise<void> {
  const headers = { Authorization: `Bearer ${world.own.key}`, "Content-Type": "application/json" };
  const made = await world.client.send({ method: "POST", path: "/v1/reports", headers, body: '{"address":"1 Race Pair Road"}' });
  const reportId = (made.json as any).data.id as string;
  const ids: Record<string, string> = { reports: reportId };
  let path = c.op.template.replace("{reportId}", reportId);
  for (const p of c.op.params.filter((x) => x.in === "path" && x.name !== "reportId")) {
    const table = world.tableFor(p.name)!;
    const create = ITEM_CREATORS[table](reportId, ids, world);
    ids[table] = create.id((await world.client.send({ ...create.sent, headers: { ...headers, ...create.sent.headers } })).json);
    path = path.replace(`{${p.name}}`, ids[table]);
  }
  const body = c.body === undefined ? undefined : toJsonText(c.body, (ref: Ref) => ids[world.tableFor(ref.hint) ?? ""] ?? world.resolve(ref).value);
  // An upload races with a real photo.
  const sent = c.op.multipart ? { ...photoUpload(world, path), headers: { ...headers, ...photoUpload(world, path).headers } } : { method: c.op.method, path, headers, body };
  const racer: Prepared = { label: `race ${c.op.method} ${c.op.template}`, sent, problems: [], unauthenticated: false, write: true };
  const deletion: Prepared = { label: "race DELETE /v1/reports/{reportId}", sent: { method: "DELETE", path: `/v1/reports/${reportId}`, headers }, problems: [], unauthenticated: false, write: true };

  const before = await world.refresh();
  const sends = [
    ...Array.from({ length: c.copies }, () => world.client.send(racer.sent).then((answer) => ({ prepared: racer, answer }))),
    new Promise((wait) => setTimeout(wait, c.delayMs)).then(() => world.client.send(deletion.sent)).then((answer) => ({ prepared: deletion, answer })),
  ];
  const failures: Failure[] = [];
  for (const { prepared, answer } of await Promise.all(sends)) {
    const key = `${prepared.label} ${answer.status}`;
    world.statuses.set(key, (world.statuses.get(key) ?? 0) + 1);
    const problems = world.restProblems(prepared, answer);
    const message = isObj(answer.json) && isObj(answer.json.error) ? String(answer.json.error.message) : "";
    if (answer.status === 404 && !/ not found$/.test(message)) problems.push(`404 not saying what was not found: ${message}`);
    failures.push(...problems.map((p) => ({ kind: p.split(":")[0], prepared, answer, detail: p })));
  }
  const after = await world.refresh();
  const theirs = changedTables(before[world.other.teamId], after[world.other.teamId]);
  if (theirs.length) failures.push({ kind: "other team's rows changed", prepared: racer, detail: `other team's rows changed in ${theirs.join(", ")}` });
  for (const { table, column } of [{ table: "reports", column: "id" }, ...(await reportReferences())]) {
    const [{ n }] = await prisma.$queryRawUnsafe<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM "${table}" WHERE "${column}" = $1::uuid`, reportId);
    if (n > 0) failures.push({ kind: "row left pointing at a deleted report", prepared: racer, answer: undefined as Answer | undefined, detail: `${n} row(s) of ${table} hold the deleted report's id` });
  }
  if (SURVEY) world.failures.push(...failures);
  else if (failures.length) throw new FuzzFailure(failures.map(describe).join("\n\n"));
}
