// The caps on open live streams (docs/api.md "Live updates"): a key holds at most 20, a team 100 across its keys,
// a process MAX_STREAMS_PER_PROCESS (lowered here to 105); past any of them the subscription is answered 429 naming
// the cap. On a real HTTP listener over the in-process app; with REDIS_URL the key's and team's counts are Redis's.
// The process cap is read from the configuration when src modules load: it is set before the imports.
const previous = process.env.MAX_STREAMS_PER_PROCESS;
process.env.MAX_STREAMS_PER_PROCESS = "105";

import { MAX_STREAMS_PER_KEY, MAX_STREAMS_PER_TEAM } from "../src/live/streams";
import { addKey, createTeam, listening, startTestApp, type TestApp } from "./support/app";
import { openLiveStream, type LiveStream } from "./support/sse";

let t: TestApp;
let closeServer: () => Promise<void>;
let base: string;
const open: LiveStream[] = [];

beforeAll(async () => {
  t = await startTestApp();
  ({ base, close: closeServer } = await listening(t.app));
});
afterAll(async () => {
  open.splice(0).forEach((stream) => stream.close());
  await closeServer();
  await t.close();
  if (previous === undefined) delete process.env.MAX_STREAMS_PER_PROCESS;
  else process.env.MAX_STREAMS_PER_PROCESS = previous;
});

const TEAM_EVENTS = `subscription { teamEvents { id type } }`;

async function subscribe(headers: Record<string, string>): Promise<LiveStream> {
  const stream = await openLiveStream(base, { query: TEAM_EVENTS, headers });
  if (stream.status === 200) open.push(stream);
  return stream;
}

/** Opens `n` streams with `headers`, a few at a time, and expects each to open. */
async function openMany(headers: Record<string, string>, n: number): Promise<LiveStream[]> {
  const streams: LiveStream[] = [];
  for (let i = 0; i < n; i += 5) streams.push(...(await Promise.all(Array.from({ length: Math.min(5, n - i) }, () => subscribe(headers)))));
  expect(streams.map((s) => s.status)).toEqual(streams.map(() => 200));
  return streams;
}

/** Opens one more stream once `closed` is gone (the server sees a close when the connection ends). */
async function reopen(closed: LiveStream, headers: Record<string, string>): Promise<LiveStream> {
  closed.close();
  await closed.ended;
  let again: LiveStream;
  do again = await subscribe(headers);
  while (again.status === 429 && (await new Promise((r) => setTimeout(r, 50)), true));
  return again;
}

it(`holds at most ${MAX_STREAMS_PER_TEAM} streams per team across its keys, then 105 per process: 429 naming the cap`, async () => {
  const team = await createTeam({ permissions: "reports:read" });
  const keys = [team.auth, ...(await Promise.all([1, 2, 3, 4, 5].map(() => addKey(team.teamId, "reports:read"))))];
  const perKey = MAX_STREAMS_PER_TEAM / MAX_STREAMS_PER_KEY;
  const streams: LiveStream[] = [];
  for (const key of keys.slice(0, perKey)) streams.push(...(await openMany(key, MAX_STREAMS_PER_KEY)));

  // A key of the team with no stream open yet: refused for the team's count, not its own.
  const refused = await subscribe(keys[perKey]);
  expect(refused.status).toBe(429);
  expect(refused.body.errors[0]).toMatchObject({
    message: `Too many open streams: a team holds at most ${MAX_STREAMS_PER_TEAM} across its keys; close one first`,
    extensions: { code: "RATE_LIMITED", cap: "team" },
  });
  // The key's own cap still names the key.
  const perKeyRefused = await subscribe(keys[0]);
  expect(perKeyRefused.body.errors[0].extensions).toMatchObject({ code: "RATE_LIMITED", cap: "key" });

  // Another team is not affected by this team's count, but this process holds 105 at most.
  const other = await createTeam({ permissions: "reports:read" });
  await openMany(other.auth, 5);
  const full = await subscribe(other.auth);
  expect(full.status).toBe(429);
  expect(full.body.errors[0]).toMatchObject({
    message: "Too many open streams on this server (at most 105); try again in a moment",
    extensions: { code: "RATE_LIMITED", cap: "process" },
  });

  // A stream that ends gives its places back: the team's sixth key opens one in its place.
  expect((await reopen(streams[0], keys[perKey])).status).toBe(200);
}, 120_000);
