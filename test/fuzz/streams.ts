// Many live streams per team: a case opens, through 1 to 6 keys of the fuzz team, up to 25 streams each (some
// selections shared, some not: reportEvents with one of three selections, teamEvents, a Last-Event-ID, a report of
// the other team), then writes the report 0 to 2 times. Every answer is 200, or 429 naming the cap that was really
// full (the key's 20, the team's 100), or the refusal of a report not the team's (404) — never a 5xx; each open
// reportEvents stream receives every write's event once, and streams of one selection and key receive the same
// bytes. All streams close before the next case (the server must see every place given back).
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { liveStreams, MAX_STREAMS_PER_KEY, MAX_STREAMS_PER_TEAM } from "../../src/live/streams";
import { addKey } from "../support/app";
import { openLiveStream, type LiveStream } from "../support/sse";
import type { World } from "./harness";

export interface StreamCase {
  keys: number;
  perKey: number[];
  selections: number[];
  writes: number;
}

const SELECTIONS = [
  `subscription($id: ID!) { reportEvents(reportId: $id) { id type report { address } } }`,
  `subscription($id: ID!) { reportEvents(reportId: $id) { id type report { id listingAgent d: description } } }`,
  `subscription($id: ID!) { reportEvents(reportId: $id) { id type } }`,
  `subscription { teamEvents(types: ["report.updated"]) { id type } }`,
];

export const streamCaseArb = (): fc.Arbitrary<StreamCase> =>
  fc.record({
    keys: fc.integer({ min: 1, max: 6 }),
    perKey: fc.array(fc.integer({ min: 0, max: 25 }), { minLength: 6, maxLength: 6 }),
    selections: fc.array(fc.integer({ min: 0, max: SELECTIONS.length + 1 }), { minLength: 25, maxLength: 25 }),
    writes: fc.integer({ min: 0, max: 2 }),
  });

/** The fuzz team's keys for streams (made once: a team holds at most 100 keys) and a report of each team. */
export interface StreamWorld {
  base: string;
  admin: Record<string, string>;
  keys: Array<Record<string, string>>;
  reportId: string;
  othersReportId: string;
}

export async function streamWorld(world: World): Promise<StreamWorld> {
  const base = `http://127.0.0.1:${(world.client.server.address() as AddressInfo).port}`;
  const keys = await Promise.all([1, 2, 3, 4, 5, 6].map(() => addKey(world.own.teamId, "reports:read")));
  const create = async (auth: Record<string, string>) => {
    const res = await fetch(`${base}/v1/reports`, { method: "POST", headers: { ...auth, "Content-Type": "application/json" }, body: '{"address":"1 Stream St"}' });
    return ((await res.json()) as { data: { id: string } }).data.id;
  };
  return { base, admin: world.own.auth, keys, reportId: await create(world.own.auth), othersReportId: await create(world.other.auth) };
}

export async function runStreams(w: StreamWorld, c: StreamCase): Promise<void> {
  const opened: Array<{ stream: LiveStream; key: number; selection: number }> = [];
  const all: LiveStream[] = [];
  const problems: string[] = [];
  try {
    for (let k = 0; k < c.keys; k++) {
      for (let i = 0; i < c.perKey[k]; i++) {
        const selection = c.selections[i];
        const others = selection === SELECTIONS.length + 1;
        const query = others ? SELECTIONS[0] : SELECTIONS[Math.min(selection, SELECTIONS.length - 1)];
        const variables = query.includes("$id") ? { id: others ? w.othersReportId : w.reportId } : undefined;
        const stream = await openLiveStream(w.base, { query, variables, headers: w.keys[k] });
        all.push(stream);
        const keyOpen = opened.filter((o) => o.key === k).length;
        const expected = others ? 404 : keyOpen >= MAX_STREAMS_PER_KEY || opened.length >= MAX_STREAMS_PER_TEAM ? 429 : 200;
        if (stream.status !== expected) problems.push(`stream ${opened.length + 1} of key ${k}: ${stream.status}, expected ${expected}`);
        if (stream.status === 429) {
          const cap = keyOpen >= MAX_STREAMS_PER_KEY ? "key" : "team";
          if (stream.body?.errors?.[0]?.extensions?.cap !== cap) problems.push(`429 naming ${JSON.stringify(stream.body?.errors?.[0]?.extensions)}, expected the ${cap} cap`);
        }
        if (stream.status === 200) opened.push({ stream, key: k, selection: Math.min(selection, SELECTIONS.length - 1) });
      }
    }
    for (let i = 0; i < c.writes; i++) {
      const write = await fetch(`${w.base}/v1/reports/${w.reportId}`, {
        method: "PATCH",
        headers: { ...w.admin, "Content-Type": "application/json" },
        body: JSON.stringify({ listing_agent: `Agent ${i}` }),
      });
      await write.arrayBuffer();
      if (write.status !== 200) problems.push(`PATCH answered ${write.status}`);
    }
    if (c.writes) {
      const data = await Promise.all(opened.map(async ({ stream }) => Promise.all(Array.from({ length: c.writes }, () => stream.next(15_000).then((e) => JSON.stringify(e), (e: Error) => `(${e.message})`)))));
      const bySelection = new Map<string, string>();
      opened.forEach(({ key, selection }, i) => {
        const got = data[i].join("\n");
        if (got.includes("(")) problems.push(`stream of key ${key}, selection ${selection}: ${got.slice(0, 200)}`);
        const same = bySelection.get(`${key} ${selection}`);
        if (same !== undefined && same !== got) problems.push(`streams of one selection and key received different events`);
        bySelection.set(`${key} ${selection}`, got);
      });
    }
  } finally {
    all.forEach((stream) => stream.close());
    // The next case starts with every place given back (the server sees a close when the connection ends).
    for (let i = 0; liveStreams().size > 0 && i < 200; i++) await new Promise((resolve) => setTimeout(resolve, 25));
  }
  if (liveStreams().size) problems.push(`${liveStreams().size} streams still open on the server after every client closed`);
  if (problems.length) throw new Error(`streams case ${JSON.stringify({ keys: c.keys, perKey: c.perKey.slice(0, c.keys), writes: c.writes })}:\n${problems.slice(0, 10).join("\n")}`);
}
