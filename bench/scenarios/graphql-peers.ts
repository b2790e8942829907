// Scenarios 8 and 9: the service against PostGraphile 5 serving the same PostgreSQL database, and against
// a hand-written server whose body PostgreSQL builds in one statement (bench/reference.ts). The three sides are
// loaded in rotating order in each round (compareMany); the ratios are the service's req/s over each other side's,
// median of per-round ratios. On PGlite neither other side can run: the service's own figures are reported and the
// target is not judged (n/a).
import { isDeepStrictEqual } from "node:util";
import { bearer, cycle } from "../http";
import { compareMany, type MultiComparison, type Side } from "../load";
import { ratio2 } from "./overhead";
import { PEER_DETAIL_QUERY, PEER_NESTED_QUERY } from "./peer-queries";
import { NESTED_QUERY } from "./statements";
import type { Row, ScenarioContext, ScenarioResult } from "./types";

const MIN_VS_POSTGRAPHILE = 1.0;
const MIN_VS_REFERENCE = 0.3;
const PAGE = 50;
const TARGET = `≥ ${MIN_VS_POSTGRAPHILE.toFixed(2)}× PostGraphile, ≥ ${MIN_VS_REFERENCE.toFixed(2)}× reference (PostgreSQL)`;

type Json = Record<string, unknown>;
interface Answer {
  status: number;
  bytes: number;
  json: Json;
}
const send = async (port: number, path: string, init: RequestInit = {}): Promise<Answer> => {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, init);
  const text = await res.text();
  return { status: res.status, bytes: Buffer.byteLength(text), json: JSON.parse(text) as Json };
};
const post = (port: number, path: string, body: unknown, headers: Record<string, string> = {}) =>
  send(port, path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
const get = (port: number, path: string, headers: Record<string, string> = {}) => send(port, path, { headers });

/**
 * Notes whether the other two sides answered what the service did — PostGraphile the same reports and items
 * (`peerSame`, its own shape), the reference the same JSON — and returns whether the checks so far (`ok`: the
 * service's own answer) and both of these hold.
 */
function sidesAgree(
  notes: string[],
  words: { peer: string; reference: string; same: string },
  ok: boolean,
  mine: Answer,
  peer: Answer,
  peerSame: boolean,
  reference: Answer,
): boolean {
  const referenceSame = isDeepStrictEqual(mine.json, reference.json);
  if (!peerSame) notes.push(`PostGraphile's ${words.peer} differs from the service's (status ${peer.status})`);
  if (!referenceSame) notes.push(`the reference's ${words.reference} differs from the service's (status ${reference.status})`);
  const agree = ok && peerSame && referenceSame;
  if (agree) notes.push(`same ${words.same} on all sides; bodies ${mine.bytes} / ${peer.bytes} / ${reference.bytes} bytes (the reference's equal to the service's as JSON)`);
  return agree;
}

const COLLECTIONS = ["comparables", "showings", "socialMediaPosts", "agentInsights"] as const;
type Item = Json & { id: string };
/** PostGraphile's collections are connections: { nodes } → the list, { totalCount } → the number. */
const unwrap = (item: Json): Json =>
  Object.fromEntries(Object.entries(item).map(([k, v]) => [k, v && typeof v === "object" && "nodes" in v ? (v as { nodes: unknown }).nodes : v && typeof v === "object" && "totalCount" in v ? (v as { totalCount: unknown }).totalCount : v]));
/** What must agree between the service and PostGraphile: the report ids, their counts and every collection's ids. */
const shape = (item: Json) => ({ id: item.id, showingsCount: item.showingsCount, ...Object.fromEntries(COLLECTIONS.map((c) => [c, ((item[c] as Item[] | undefined) ?? []).map((i) => i.id)])) });
const pageItems = (answer: Json): Json[] => ((answer.data as Json | undefined)?.reports as { items?: Json[] } | undefined)?.items ?? [];
/** Whether PostGraphile's answer to PEER_NESTED_QUERY holds the same reports and items as the service's NESTED_QUERY. */
export const samePage = (service: Json, peer: Json): boolean => isDeepStrictEqual(pageItems(service).map(shape), pageItems(peer).map(unwrap).map(shape));

function resultOf(id: number, title: string, c: MultiComparison | Row, notes: string[], checksOk: boolean): ScenarioResult {
  if (!("sides" in c)) {
    const service = c;
    return { id, title, target: TARGET, measured: "PostgreSQL only", pass: checksOk && !service.errors, judged: false, rows: [service], notes };
  }
  const [peer, reference] = c.ratios;
  for (const r of c.ratios) {
    const sorted = [...r.rounds].sort((x, y) => x - y);
    notes.push(`vs ${r.name}: ${r.rounds.length} rounds, per-round ratio ${sorted[0].toFixed(2)}–${sorted[sorted.length - 1].toFixed(2)}`);
  }
  const errors = c.sides.reduce((n, s) => n + s.errors, 0);
  return {
    id,
    title,
    target: TARGET,
    measured: `${ratio2(peer.ratio)}× / ${ratio2(reference.ratio)}×`,
    pass: checksOk && errors === 0 && peer.ratio >= MIN_VS_POSTGRAPHILE && reference.ratio >= MIN_VS_REFERENCE,
    rows: c.sides.map((s) => ({ label: s.name, rps: s.rps, p50: s.p50, p99: s.p99, errors: s.errors })),
    notes,
  };
}

async function serviceOnly(side: Side, ctx: ScenarioContext): Promise<Row> {
  // A nested page on PGlite takes about 0.1 s of the server's one thread: 10 connections need rounds of seconds.
  const c = await compareMany([side], { ...ctx.plan, seconds: Math.max(ctx.plan.seconds, 4), warmupSeconds: Math.max(ctx.plan.warmupSeconds, 2) }, "rps");
  const s = c.sides[0];
  return { label: s.name, rps: s.rps, p50: s.p50, p99: s.p99, errors: s.errors };
}

/** 8. POST /graphql: 50 reports × 4 collections × 10 items, the same selection on every side. */
export async function nestedPage(ctx: ScenarioContext): Promise<ScenarioResult> {
  const { key, teamId } = ctx.seed.nested;
  const title = `GraphQL ${PAGE} reports × 4 collections × 10: vs PostGraphile, vs one SQL statement`;
  const service: Side = {
    name: "this service (POST /graphql)",
    target: { port: ctx.ports.stack, method: "POST", headers: bearer(key), next: () => ({ path: "/graphql", body: { query: NESTED_QUERY, variables: { limit: PAGE } } }) },
  };
  const notes: string[] = [];
  const mine = await post(ctx.ports.stack, "/graphql", { query: NESTED_QUERY, variables: { limit: PAGE } }, bearer(key));
  const items = pageItems(mine.json);
  let ok = mine.status === 200 && items.length === PAGE && items.every((i) => COLLECTIONS.every((c) => (i[c] as unknown[]).length === 10));
  if (!ok) notes.push(`service: unexpected response ${mine.status}`);
  if (!ctx.peers) {
    notes.push(`service body ${mine.bytes} bytes; PostGraphile and the reference need PostgreSQL (DATABASE_URL)`);
    return resultOf(8, title, await serviceOnly(service, ctx), notes, ok);
  }
  const peerBody = { query: PEER_NESTED_QUERY, variables: { teamId, limit: PAGE } };
  const peer = await post(ctx.peers.postgraphile, "/graphql", peerBody);
  const reference = await post(ctx.peers.reference, "/graphql", { query: NESTED_QUERY, variables: { limit: PAGE } });
  const peerSame = samePage(mine.json, peer.json);
  ok = sidesAgree(notes, { peer: "page", reference: "page", same: "reports and items" }, ok, mine, peer, peerSame, reference);
  const c = await compareMany(
    [
      service,
      { name: "PostGraphile 5 (allReports)", target: { port: ctx.peers.postgraphile, method: "POST", next: () => ({ path: "/graphql", body: peerBody }) } },
      { name: "reference (node:http + pg, one statement)", target: { port: ctx.peers.reference, method: "POST", next: () => ({ path: "/graphql", body: { query: NESTED_QUERY, variables: { limit: PAGE } } }) } },
    ],
    ctx.plan,
    "rps",
  );
  return resultOf(8, title, c, notes, ok);
}

/** 9. GET /v1/reports/{id} (40 nested items) vs PostGraphile's reportByRowId with the same columns and collections. */
export async function reportDetail(ctx: ScenarioContext): Promise<ScenarioResult> {
  const { key, reportIds } = ctx.seed.nested;
  const title = "GET /v1/reports/{id}: vs PostGraphile reportByRowId, vs one SQL statement";
  const nextId = cycle(reportIds);
  const service: Side = { name: "this service (REST)", target: { port: ctx.ports.stack, headers: bearer(key), next: () => ({ path: `/v1/reports/${nextId()}` }) } };
  const notes: string[] = [];
  const id = reportIds[0];
  const mine = await get(ctx.ports.stack, `/v1/reports/${id}`, bearer(key));
  let ok = mine.status === 200;
  if (!ok) notes.push(`service: unexpected response ${mine.status}`);
  if (!ctx.peers) {
    notes.push(`service body ${mine.bytes} bytes; PostGraphile and the reference need PostgreSQL (DATABASE_URL)`);
    return resultOf(9, title, await serviceOnly(service, ctx), notes, ok);
  }
  const peer = await post(ctx.peers.postgraphile, "/graphql", { query: PEER_DETAIL_QUERY, variables: { id } });
  const reference = await get(ctx.peers.reference, `/v1/reports/${id}`);
  const rest = mine.json.data as Json;
  const restShape = {
    id: rest.id,
    showingsCount: rest.showings_count,
    comparables: (rest.comparable_properties as Item[]).map((i) => i.id),
    showings: (rest.showing_events as Item[]).map((i) => i.id),
    socialMediaPosts: (rest.social_media_posts as Item[]).map((i) => i.id),
    agentInsights: (rest.agent_insights as Item[]).map((i) => i.id),
  };
  const peerReport = unwrap(((peer.json.data as Json | undefined)?.report as Json | undefined) ?? {});
  const peerSame = isDeepStrictEqual(restShape, shape(peerReport));
  ok = sidesAgree(notes, { peer: "report", reference: "body", same: "report and items" }, ok, mine, peer, peerSame, reference);
  const peerId = cycle(reportIds);
  const refId = cycle(reportIds);
  const c = await compareMany(
    [
      service,
      { name: "PostGraphile 5 (reportByRowId)", target: { port: ctx.peers.postgraphile, method: "POST", next: () => ({ path: "/graphql", body: { query: PEER_DETAIL_QUERY, variables: { id: peerId() } } }) } },
      { name: "reference (node:http + pg, one statement)", target: { port: ctx.peers.reference, next: () => ({ path: `/v1/reports/${refId()}` }) } },
    ],
    ctx.plan,
    "rps",
  );
  return resultOf(9, title, c, notes, ok);
}
