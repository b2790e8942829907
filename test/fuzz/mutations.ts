// Aliased mutations: one GraphQL document with many root mutation fields (aliases, fragments on Mutation, repeated
// response names, __typename), sent with the fuzz team's large budget or with a small one (a free-tier key of the
// fuzz team). A mutation request costs one rate-limit point per root mutation field it runs: each answer is either
// a 429 RATE_LIMITED that ran nothing (only when the rest of the hour could not pay for it), or executed with exactly
// its cost taken from X-RateLimit-Remaining, or refused before execution (a limit) with one point taken. Never a 5xx.
import fc from "fast-check";
import { createApiKey } from "../../src/auth/api-keys";
import type { Answer } from "./client";
import type { Prepared, World } from "./harness";
import { isObj, Ref } from "./values";

export interface AliasedCase {
  /** The fields, by template (see FIELDS); each gets an alias of its own. */
  fields: number[];
  /** Some fields put at the root through a fragment on Mutation. */
  fragment: boolean;
  /** The first field once more under the same alias (one field to run: it costs one point). */
  repeat: boolean;
  typename: boolean;
  /** Sent with the small budget (a free-tier key) rather than the fuzz key's. */
  small: boolean;
  pick: number;
}

const UNKNOWN = "00000000-0000-4000-8000-000000000000";

/**
 * Root mutation fields that pass validation whatever the state, and succeed or fail as they run (a failing one
 * ends the request's execution: its fields are non-null).
 */
const FIELDS: Array<(world: World, i: number, pick: number) => string> = [
  (_w, i) => `createReport(input: { address: "${i} Alias Street" }) { id }`,
  () => `deleteReport(id: "${UNKNOWN}")`,
  (w, i, pick) => {
    const report = w.resolve(new Ref("reportId", "own", pick)).value;
    return `importSocialMediaPosts(reportId: "${report}", posts: [{ platform: "instagram", external_id: "alias-${i}", likes: ${i} }]) { created updated unchanged failed }`;
  },
  () => `createApiKey(input: { name: "alias key" }) { key }`, // the fuzz key lacks api_keys:create: refused per field
];

export const aliasedCaseArb = (): fc.Arbitrary<AliasedCase> =>
  fc.record({
    fields: fc.array(fc.constantFrom(0, 0, 0, 1, 2, 2, 2, 3), { minLength: 1, maxLength: 34, size: "max" }), // past the alias limit (30) too
    fragment: fc.boolean(),
    repeat: fc.boolean(),
    typename: fc.boolean(),
    small: fc.boolean(),
    pick: fc.nat(),
  });

/** The document, and its cost: one point per distinct response name of a mutation field. */
export function aliasedDocument(world: World, c: AliasedCase): { query: string; cost: number } {
  const fields = c.fields.map((t, i) => `m${i}: ${FIELDS[t](world, i, c.pick + i)}`);
  if (c.repeat) fields.push(fields[0]);
  if (c.typename) fields.push("__typename");
  const half = Math.floor(fields.length / 2);
  const query = c.fragment && half > 0
    ? `mutation Aliased { ${fields.slice(half).join(" ")} ...Rest } fragment Rest on Mutation { ${fields.slice(0, half).join(" ")} }`
    : `mutation Aliased { ${fields.join(" ")} }`;
  return { query, cost: c.fields.length };
}

let smallKey: string | undefined;

/** The free-tier key of the fuzz team (made again when a fuzzed revokeApiKey revoked it). */
async function smallBudget(world: World, fresh: boolean): Promise<string> {
  if (!smallKey || fresh) {
    smallKey = (await createApiKey({ teamId: world.own.teamId, name: "fuzz small budget", tier: "free" })).key;
    await world.refresh();
  }
  return smallKey;
}

const remaining = (answer: Answer): number => Number(answer.headers["x-ratelimit-remaining"]);

/** What is left of the key's hour before the request (a cheap query's answer, which itself took one point). */
async function leftBefore(world: World, c: AliasedCase): Promise<{ auth: string; left: number }> {
  for (let attempt = 0; ; attempt++) {
    const auth = `Bearer ${c.small ? await smallBudget(world, attempt > 0) : world.own.key}`;
    const probe = await world.client.send({ method: "POST", path: "/graphql", headers: { Authorization: auth, "Content-Type": "application/json" }, body: '{"query":"{ __typename }"}' });
    if (probe.status !== 401 || attempt > 0) return { auth, left: remaining(probe) };
  }
}

function judge(answer: Answer, cost: number, left: number): { ok: boolean; problems: string[] } {
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`5xx: status ${answer.status}`);
  const body = isObj(answer.json) ? (answer.json as { data?: unknown; errors?: Array<Record<string, any>> }) : undefined;
  if (!body) return { ok: false, problems: [...problems, `not JSON: ${answer.status} body is not a JSON object`] };
  const errors = Array.isArray(body.errors) ? body.errors : [];
  for (const e of errors) {
    if (e?.extensions?.code === "INTERNAL_SERVER_ERROR" || e?.extensions?.status >= 500) problems.push(`5xx: GraphQL error ${String(e.message).slice(0, 200)}`);
  }
  const after = remaining(answer);
  const executed = answer.status === 200 && "data" in body;
  if (answer.status === 429) {
    if (errors[0]?.extensions?.code !== "RATE_LIMITED") problems.push(`429 without RATE_LIMITED: ${answer.text.slice(0, 200)}`);
    if (!answer.headers["retry-after"]) problems.push("429 without Retry-After");
    if (left >= cost) problems.push(`rate limited although ${left} points were left for a cost of ${cost}`);
    if (after !== Math.max(0, left - 1)) problems.push(`points counted: a refused request took ${left - after} points, not 1`);
  } else if (executed) {
    if (left < cost) problems.push(`ran although ${left} points were left for a cost of ${cost}`);
    if (after !== left - cost) problems.push(`points counted: ${left - after} for ${cost} root mutation fields`);
  } else if (after !== left - 1) {
    problems.push(`points counted: a request refused before execution (${answer.status}) took ${left - after} points, not 1`);
  }
  return { ok: executed, problems };
}

/** Sends one aliased-mutation document and checks its answer (the harness checks what changed). */
export async function runAliased(world: World, c: AliasedCase): Promise<void> {
  const { auth, left } = await leftBefore(world, c);
  const { query, cost } = aliasedDocument(world, c);
  const prepared: Prepared = {
    label: `graphql ${c.fields.length} aliased mutations${c.small ? " (small budget)" : ""}`,
    sent: { method: "POST", path: "/graphql", headers: { Authorization: auth, "Content-Type": "application/json" }, body: JSON.stringify({ query }) },
    problems: [],
    unauthenticated: false,
    write: true,
  };
  await world.exchange(prepared, (answer) => judge(answer, cost, left));
}
