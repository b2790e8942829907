// The fuzzer's world: the in-process app, the fuzz team (an enterprise key) and another team whose rows must never
// leak or change, the stored state around each request, and the checks every answer must pass.
import { randomUUID } from "node:crypto";
import { prisma } from "../../src/db";
import { createTeam, startTestApp, type TestApp, type TestTeam } from "../support/app";
import { Client, type Answer, type Sent } from "./client";
import { Oracle } from "./oracle";
import { changedTables, Store, type StoreState } from "./store";
import { isObj, preview, type Ref } from "./values";

// 3,000 cases send about 5,000 requests (read-backs after successful writes come on top).
// CI (CI=true) runs 3,000 cases a pass, over 10,000 requests across its two database passes; a developer's `npm test`
// runs 800 (about 1,300 requests, a few seconds beside the other files) so the whole suite stays within a minute.
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? (process.env.CI === "true" ? 2000 : 400));
export const SEED = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : process.env.CI === "true" ? 20261121 : Math.floor(Math.random() * 2 ** 31);
/** FUZZ_SURVEY=1: record every failing answer and go on (grouped into classes at the end) instead of stopping at the first. */
export const SURVEY = process.env.FUZZ_SURVEY === "1";

export const REPLAY = `FUZZ_SEED=${SEED} npm run test:only -- test/fuzz`;

/** A request after placeholders were resolved, with the reasons the oracle found it certainly invalid. */
export interface Prepared {
  label: string;
  sent: Sent;
  /** Why the request must not succeed (empty: the oracle cannot tell). */
  problems: string[];
  /** The request does not authenticate (random, malformed or missing key). */
  unauthenticated: boolean;
  /** The request may change stored data. */
  write: boolean;
  /** The media type of a documented success that is not JSON (the report's PDF). */
  binary?: string;
  /** Ids of the other team the answer may show: a public page's own (its report's photos, in their URLs). */
  shows?: string[];
  /**
   * Whose data the request acts on: the fuzz team's (default), or the other team's when it is sent to a public page
   * of the other team's own (a visitor signing in on its open-house link changes its attendees, as the design says).
   * The team it does not act on never changes; the one it acts on changes only when the request is accepted.
   */
  actsOn?: "own" | "other";
}

export class FuzzFailure extends Error {}

export interface Failure {
  kind: string;
  prepared: Prepared;
  answer?: Answer;
  detail: string;
}

export class World {
  state!: StoreState;
  readonly failures: Failure[] = [];
  readonly statuses = new Map<string, number>();
  readonly marker = `VICTIM${randomUUID().slice(0, 8)}`;
  /** The fuzz key's own row: never offered as a target (revoking it would end the run). */
  ownKeyId = "";
  private constructor(
    readonly t: TestApp,
    readonly client: Client,
    readonly oracle: Oracle,
    readonly store: Store,
    readonly own: TestTeam,
    readonly other: TestTeam,
    readonly doc: Record<string, any>,
  ) {}

  static async open(): Promise<World> {
    const t = await startTestApp();
    const client = await Client.listen(t.app);
    const docAnswer = await client.send({ method: "GET", path: "/v1/openapi.json", headers: {} });
    if (docAnswer.status !== 200 || !isObj(docAnswer.json)) throw new Error(`GET /v1/openapi.json answered ${docAnswer.status}`);
    const doc = docAnswer.json as Record<string, any>;
    const own = await createTeam({ name: "Fuzz Team", tier: "enterprise" });
    const other = await createTeam({ name: "Other Team", tier: "enterprise" });
    const world = new World(t, client, new Oracle(doc), await Store.open(), own, other, doc);
    world.ownKeyId = (await prisma.apiKey.findFirstOrThrow({ where: { teamId: own.teamId } })).id;
    await world.refresh();
    return world;
  }

  async close(): Promise<void> {
    await this.client.close();
    await this.t.close();
  }

  readonly timing = { send: 0, refresh: 0, refreshes: 0 };
  async refresh(): Promise<StoreState> {
    const t0 = performance.now();
    this.state = await this.store.read([this.own.teamId, this.other.teamId]);
    this.timing.refresh += performance.now() - t0;
    this.timing.refreshes++;
    return this.state;
  }

  /** The table a parameter or field name points at: reportId → reports, deliveryId → webhook_deliveries… */
  tableFor(hint: string): string | undefined {
    const word = hint
      .replace(/_?[iI][dD]$/, "")
      .replace(/^(create|update|delete|revoke|rotate|redeliver)/, "")
      .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
      .toLowerCase()
      .replace(/^_+/, "");
    if (!word) return undefined;
    const plural = word.endsWith("y") ? `${word.slice(0, -1)}ies` : `${word}s`;
    const tables = this.store.tables;
    return tables.find((t) => t === plural) ?? tables.find((t) => t.endsWith(`_${plural}`)) ?? tables.find((t) => t.includes(word));
  }

  /** A placeholder's value, from the point of view of the fuzz team; `exists` when it names a row of its table. */
  resolve(ref: Ref, team: TestTeam = this.own): { value: string; exists: boolean } {
    const table = this.tableFor(ref.hint);
    const mine = team === this.own ? this.state[this.own.teamId] : this.state[this.other.teamId];
    const theirs = team === this.own ? this.state[this.other.teamId] : this.state[this.own.teamId];
    const pick = <T>(all: T[] | undefined): T | undefined => {
      const list = all?.filter((x) => x !== (this.ownKeyId as unknown));
      return list?.length ? list[ref.pick % list.length] : undefined;
    };
    const unknown = `00000000-0000-4000-8000-${String(ref.pick).padStart(12, "0")}`;
    if (!table) return { value: unknown, exists: false };
    switch (ref.kind) {
      case "own": {
        const id = pick(mine[table]?.ids);
        return id ? { value: id, exists: true } : { value: unknown, exists: false };
      }
      case "key": {
        const key = pick(mine[table]?.keys) ?? pick(mine[table]?.ids);
        return key ? { value: key, exists: true } : { value: unknown, exists: false };
      }
      case "other":
        return { value: pick(theirs[table]?.ids) ?? unknown, exists: false };
      default:
        return { value: unknown, exists: false };
    }
  }

  private pending: Failure[] = [];

  /** Records a failure; it is thrown (normal runs) or kept for the survey once the exchange is complete. */
  fail(kind: string, prepared: Prepared, answer: Answer | undefined, detail: string): void {
    this.pending.push({ kind, prepared, answer, detail });
  }

  private settle(): void {
    const found = this.pending;
    this.pending = [];
    if (!found.length) return;
    if (SURVEY) this.failures.push(...found);
    else throw new FuzzFailure(found.map(describe).join("\n\n"));
  }

  /** Sends a request and applies the checks every answer must pass. Returns the answer (undefined if none came). */
  async exchange(prepared: Prepared, interpret: (answer: Answer) => { ok: boolean; problems: string[] }): Promise<Answer | undefined> {
    const before = prepared.write ? this.state : undefined;
    let answer: Answer | undefined;
    try {
      const t0 = performance.now();
      answer = await this.client.send(prepared.sent);
      this.timing.send += performance.now() - t0;
    } catch (err) {
      this.fail("no answer", prepared, undefined, String(err));
    }
    let ok = false;
    if (answer) {
      const key = `${prepared.label} ${answer.status}`;
      this.statuses.set(key, (this.statuses.get(key) ?? 0) + 1);
      const verdict = interpret(answer);
      ok = verdict.ok;
      for (const p of verdict.problems) this.fail(p.split(":")[0], prepared, answer, p);
    }
    if (before) {
      const after = await this.refresh();
      // The team the request does not act on (the other team, unless it is sent to that team's public page) never
      // changes; a refused request changes nothing of the team it acts on either.
      const [actor, bystander] = prepared.actsOn === "other" ? [this.other, this.own] : [this.own, this.other];
      const who = bystander === this.other ? "other team's" : "fuzz team's";
      const theirs = changedTables(before[bystander.teamId], after[bystander.teamId]);
      if (theirs.length) this.fail(`${who} rows changed`, prepared, answer, `${who} rows changed in ${theirs.join(", ")}`);
      if (!ok) {
        const mine = changedTables(before[actor.teamId], after[actor.teamId]);
        if (mine.length) this.fail("refused request changed rows", prepared, answer, `refused (${answer?.status ?? "no answer"}) but rows changed in ${mine.join(", ")}`);
      }
    }
    if (answer) this.checkLeak(prepared, answer);
    if (Object.prototype.hasOwnProperty.call(Object.prototype, "polluted") || Object.prototype.hasOwnProperty.call(Object.prototype, "isAdmin")) {
      this.fail("prototype pollution", prepared, answer, "Object.prototype was polluted in the server process");
    }
    this.settle();
    return answer;
  }

  /** The other team's ids and marker never appear in an answer, unless the request carried them itself or may show them. */
  checkLeak(prepared: Prepared, answer: Answer): void {
    const theirs = this.state[this.other.teamId];
    const asked = `${prepared.sent.path} ${prepared.sent.body ?? ""}`;
    const secrets = [this.marker, ...Object.values(theirs).flatMap((t) => [...t.ids, ...t.keys])];
    const leaked = secrets.find((s) => answer.text.includes(s) && !asked.includes(s) && !prepared.shows?.includes(s));
    if (leaked) this.fail("cross-team leak", prepared, answer, `the answer contains ${leaked} of the other team`);
  }

  /** Checks common to REST answers: no 5xx, the envelope, the status table. */
  restProblems(prepared: Prepared, answer: Answer): string[] {
    const out: string[] = [];
    const { status } = answer;
    if (status >= 500) out.push(`5xx: status ${status}`);
    const ok = status >= 200 && status < 300;
    if (ok) {
      const documentedBinary = prepared.binary && String(answer.headers["content-type"] ?? "").startsWith(prepared.binary);
      if (!answer.isJson && !documentedBinary) out.push(`not JSON: ${status} answer is not JSON`);
      if (prepared.problems.length) out.push(`accepted invalid request: ${status} although ${prepared.problems.join("; ")}`);
      if (prepared.unauthenticated) out.push(`accepted without a valid key: ${status}`);
      return out;
    }
    const err = isObj(answer.json) && isObj(answer.json.error) ? answer.json.error : undefined;
    if (!err || typeof err.message !== "string" || !err.message || err.status !== status) {
      out.push(`no error envelope: ${status} body is not { error: { message, status: ${status} } }`);
    } else if (/\n\s+at |prisma|SQLSTATE|invalid input syntax|Variable "\$|cannot represent|got invalid value|Unexpected error/i.test(err.message)) {
      out.push(`internal detail in message: ${err.message.slice(0, 200)}`);
    }
    if (status === 429) out.push("429: rate limited although the fuzz limits are raised (harness or limiter problem)");
    if (status < 500 && ![400, 401, 403, 404, 405, 409, 413, 415, 422, 429, 431].includes(status)) out.push(`unexpected status: ${status}`);
    if (prepared.unauthenticated && [403, 409, 422].includes(status)) out.push(`authenticated a bad key: ${status}`);
    return out;
  }
}

/** A failure as printed: the request (method, path, headers, body), the answer, and how to replay the run. */
export function describe(f: Failure): string {
  const { sent, problems, label } = f.prepared;
  const headers = Object.entries(sent.headers)
    .map(([k, v]) => `${k}: ${v.startsWith("Bearer prs_sk_live_") && v.length === 51 ? "Bearer <fuzz team key>" : preview(v, 120)}`)
    .join(", ");
  return [
    `${f.kind} (${label})`,
    `  request:  ${sent.method} ${preview(sent.path, 300)}`,
    `  headers:  ${headers || "(none)"}`,
    `  body:     ${preview(sent.body)}`,
    `  answer:   ${f.answer ? `${f.answer.status} ${preview(f.answer.text)}` : "(none)"}`,
    `  problem:  ${f.detail}`,
    problems.length ? `  invalid:  ${problems.join("; ")}` : "",
    `  replay:   ${REPLAY}`,
  ]
    .filter(Boolean)
    .join("\n");
}

/** Survey output: one entry per failure class, with its smallest example. */
export function summarise(failures: Failure[]): string {
  const classes = new Map<string, Failure[]>();
  for (const f of failures) {
    const status = f.answer?.status ?? "none";
    const msg = isObj(f.answer?.json) && isObj((f.answer!.json as any).error) ? String((f.answer!.json as any).error.message).slice(0, 60) : "";
    // The cause as the oracle saw it, without the generated values, separates e.g. NUL from huge numbers.
    const cause = f.prepared.problems
      .map((p) => p.replace(/"[^"]*"/g, "…").replace(/\d+(\.\d+)?/g, "N").replace(/^: \/\w+ /, ": "))
      .filter((p) => !/no valid key|is not an operation/.test(p))
      .slice(0, 2)
      .join("; ");
    const key = `${f.kind} | ${f.prepared.label} | ${status} | ${msg} | ${cause}`;
    classes.set(key, [...(classes.get(key) ?? []), f]);
  }
  return [...classes.entries()]
    .map(([key, list]) => {
      const smallest = list.reduce((a, b) => ((a.prepared.sent.body?.length ?? 0) + a.prepared.sent.path.length <= (b.prepared.sent.body?.length ?? 0) + b.prepared.sent.path.length ? a : b));
      return `### ${key} (${list.length}×)\n${describe(smallest)}`;
    })
    .join("\n\n");
}
