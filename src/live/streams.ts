// Open live streams of this process and what feeds them (docs/api.md "Live updates").
//
// Every committed change is already a row of the outbox (webhook_events), numbered per team in commit order (`seq`,
// migration live_event_seq). A stream is a position in its team's numbers: it is sent the team's events after that
// position, in order, each once. One feed per team with streams open here reads the outbox after its position when
// the bus (./bus.ts) says the team committed events, and hands each row to the team's streams; a stream resuming
// from a Last-Event-ID first reads what it missed itself, holding the feed's rows meanwhile, and drops any row at or
// before its position, so a row read twice is sent once and none is skipped. A missed bus message only delays
// events until the team's next message (or the next sweep, below): the outbox, not the message, says what to send.
//
// Caps: at most MAX_STREAMS_PER_KEY streams per key and MAX_STREAMS_PER_TEAM per team, counted across processes in
// Redis when it is configured (entries refreshed while open, so a process that died stops counting after
// STREAM_LEASE_MS) or here, and config.MAX_STREAMS_PER_PROCESS in this process, whatever the transport. A key
// revoked or rolled through the API is announced on the bus, and every process closes that key's streams once it
// reads the key as no longer valid; a sweep every SWEEP_MS re-reads the keys of open streams (a key revoked from the
// CLI or expired at the end of a roll's overlap) and reads every open team's outbox again.
import { randomUUID } from "node:crypto";
import { openSealedFields } from "../attendees/crypto";
import { config } from "../config";
import { database } from "../db";
import type { Statement } from "../db/open";
import { logger } from "../logger";
import { redisClient } from "../redis";
import { liveBus } from "./bus";

export const MAX_STREAMS_PER_KEY = 20;
export const MAX_STREAMS_PER_TEAM = 100;
const STREAM_LEASE_MS = 60_000;
const SWEEP_MS = 2_000;
/** Rows of the outbox read at once. */
export const OUTBOX_PAGE = 500;

/** One event of the outbox as a stream sends it. */
export interface LiveRow {
  id: string;
  seq: bigint;
  type: string;
  /** The webhook payload's data (ids of the changed object and its report). */
  data: Record<string, unknown>;
  timestamp: Date;
}

interface RawRow {
  id: string;
  seq: string;
  type: string;
  data: Record<string, unknown> | string;
  created_at: Date | string;
}

const AFTER: Statement = {
  name: "prs_live_after",
  text: `SELECT id, seq::text AS seq, type, data, created_at FROM webhook_events
         WHERE team_id = $1::uuid AND seq > $2::bigint AND type <> 'webhook.test' ORDER BY webhook_events.seq LIMIT ${OUTBOX_PAGE}`,
};
const LAST: Statement = { name: "prs_live_last", text: "SELECT coalesce(max(seq), 0)::text AS seq FROM webhook_events WHERE team_id = $1::uuid" };
const SEQ_OF: Statement = { name: "prs_live_seq_of", text: "SELECT seq::text AS seq FROM webhook_events WHERE team_id = $1::uuid AND id = $2 AND seq IS NOT NULL" };
const VALID_KEYS: Statement = {
  name: "prs_live_valid_keys",
  text: "SELECT id::text AS id FROM api_keys WHERE id = ANY($1::uuid[]) AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())",
};

const toRow = (raw: RawRow): LiveRow => ({
  id: raw.id,
  seq: BigInt(raw.seq),
  type: raw.type,
  data: openSealedFields(typeof raw.data === "string" ? JSON.parse(raw.data) : raw.data),
  timestamp: raw.created_at instanceof Date ? raw.created_at : new Date(raw.created_at),
});

async function rowsAfter(teamId: string, after: bigint): Promise<LiveRow[]> {
  return (await database.query<RawRow>(AFTER, [teamId, after.toString()])).map(toRow);
}

/** The team's last position now: a stream opened without Last-Event-ID starts after it. */
export async function lastPosition(teamId: string): Promise<bigint> {
  const rows = await database.query<{ seq: string }>(LAST, [teamId]);
  return BigInt(rows[0]?.seq ?? "0");
}

/** The position of event `id` in the team's stream, or null when the team has no such event (any more). */
export async function positionOf(teamId: string, id: string): Promise<bigint | null> {
  const rows = await database.query<{ seq: string }>(SEQ_OF, [teamId, id]);
  return rows[0] ? BigInt(rows[0].seq) : null;
}

/** An open stream, as the feeds see it. */
export interface Stream {
  readonly id: string;
  readonly keyId: string;
  readonly teamId: string;
  /** Whether this stream sends `row` (its filter and its key's permissions). */
  wants(row: LiveRow): boolean;
  /** Sends a row (in order, once: the stream drops rows at or before its position). */
  deliver(row: LiveRow): void;
  /** Ends the stream; `reason` is sent as its last event's error first. */
  close(reason?: Error): void;
}

class TeamFeed {
  readonly streams = new Set<Stream>();
  /** The last position read and handed to the streams; null until read. */
  position: bigint | null = null;
  private reading: Promise<void> | null = null;
  private again = false;

  constructor(readonly teamId: string) {
    this.placed().catch(() => undefined);
  }

  private placing: Promise<void> | null = null;

  /**
   * Reads the feed's first position unless it has one (one read at a time). A failed read is tried again by the next
   * stream that joins or the next read of the outbox, instead of leaving the team's streams here without events.
   */
  placed(): Promise<void> {
    if (this.position !== null) return Promise.resolve();
    this.placing ??= database
      .query<{ seq: string }>(LAST, [this.teamId])
      .then((rows) => void (this.position ??= BigInt(rows[0]?.seq ?? "0")))
      .finally(() => (this.placing = null));
    return this.placing;
  }

  /** Reads the outbox after the feed's position (again once more if asked meanwhile). */
  poke(): void {
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = this.readAll()
      .catch((err) => logger.warn({ err, teamId: this.teamId }, "could not read the outbox for live streams; the next change or sweep tries again"))
      .finally(() => {
        this.reading = null;
        if (this.again) {
          this.again = false;
          this.poke();
        }
      });
  }

  private async readAll(): Promise<void> {
    await this.placed();
    for (;;) {
      const rows = await rowsAfter(this.teamId, this.position!);
      for (const row of rows) {
        this.position = row.seq;
        for (const stream of this.streams) stream.deliver(row);
      }
      if (rows.length < OUTBOX_PAGE) return;
    }
  }
}

/** Which cap refused a stream. */
export type StreamCap = "key" | "team" | "process";

/** Where the open streams of each key and each team are counted. */
interface StreamCounter {
  /** Takes the stream's places in its key's and its team's counts, or answers which of them is full. */
  take(stream: Stream): Promise<StreamCap | null>;
  release(stream: Stream): void;
  refresh(streams: Iterable<Stream>): void;
  close(): Promise<void>;
}

function memoryCounter(): StreamCounter {
  const keys = new Map<string, Set<string>>();
  const teams = new Map<string, Set<string>>();
  const drop = (map: Map<string, Set<string>>, id: string, streamId: string) => {
    const set = map.get(id);
    if (set?.delete(streamId) && !set.size) map.delete(id);
  };
  return {
    take: async ({ keyId, teamId, id }) => {
      const forKey = keys.get(keyId) ?? new Set();
      const forTeam = teams.get(teamId) ?? new Set();
      if (forKey.size >= MAX_STREAMS_PER_KEY) return "key";
      if (forTeam.size >= MAX_STREAMS_PER_TEAM) return "team";
      keys.set(keyId, forKey.add(id));
      teams.set(teamId, forTeam.add(id));
      return null;
    },
    release: ({ keyId, teamId, id }) => {
      drop(keys, keyId, id);
      drop(teams, teamId, id);
    },
    refresh: () => undefined,
    close: async () => {
      keys.clear();
      teams.clear();
    },
  };
}

// Takes a place in the key's and in the team's sorted sets of open streams (scored by their last refresh) unless one
// of them holds its maximum (1: the key's, 2: the team's); entries not refreshed within the lease (a process that
// died) are dropped first. One script, so two processes taking the last place of a team cannot both get it.
const TAKE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[2])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 1 end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5]) then return 2 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[1], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[6])
redis.call('PEXPIRE', KEYS[2], ARGV[6])
return 0`;

function redisCounter(url: string, prefix: string): StreamCounter {
  // Commands wait for the connection (the first ones are sent while it opens), each retried once.
  const client = redisClient(url, { enableAutoPipelining: true, maxRetriesPerRequest: 1 });
  client.on("error", (err) => logger.warn({ err: err.message }, "redis error; new live streams are refused meanwhile"));
  // The team's id as a hash tag: a key's set and its team's share a slot (a script may only touch one on a cluster).
  const keyOf = (stream: Stream) => `${prefix}:live:streams:{${stream.teamId}}:key:${stream.keyId}`;
  const teamOf = (stream: Stream) => `${prefix}:live:streams:{${stream.teamId}}:team`;
  return {
    take: async (stream) => {
      const now = Date.now();
      const args = [now, now - STREAM_LEASE_MS, stream.id, MAX_STREAMS_PER_KEY, MAX_STREAMS_PER_TEAM, STREAM_LEASE_MS * 2];
      const full = await client.eval(TAKE, 2, keyOf(stream), teamOf(stream), ...args);
      return full === 1 ? "key" : full === 2 ? "team" : null;
    },
    release: (stream) => {
      void client.zrem(keyOf(stream), stream.id).catch(() => undefined);
      void client.zrem(teamOf(stream), stream.id).catch(() => undefined);
    },
    refresh: (streams) => {
      const now = Date.now();
      for (const stream of streams) {
        for (const set of [keyOf(stream), teamOf(stream)]) {
          void client.zadd(set, "XX", now, stream.id).catch(() => undefined);
          void client.pexpire(set, STREAM_LEASE_MS * 2).catch(() => undefined);
        }
      }
    },
    close: async () => void (await client.quit().catch(() => undefined)),
  };
}

export class LiveStreams {
  private readonly feeds = new Map<string, TeamFeed>();
  private readonly byKey = new Map<string, Set<Stream>>();
  private readonly counter: StreamCounter = config.REDIS_URL ? redisCounter(config.REDIS_URL, config.REDIS_KEY_PREFIX) : memoryCounter();
  private sweeper: NodeJS.Timeout | null = null;
  private lastRefresh = 0;
  private listening = false;
  /** Streams of this process holding a place (or taking one): the process's count, for every transport. */
  private readonly placed = new Set<string>();

  /**
   * Takes the stream's place under the three caps (this process's first, then its key's and its team's, across
   * processes with Redis), or answers which one is full. The one place every transport counts its streams.
   */
  async take(stream: Stream): Promise<StreamCap | null> {
    if (this.placed.size >= config.MAX_STREAMS_PER_PROCESS) return "process";
    this.placed.add(stream.id);
    try {
      const full = await this.counter.take(stream);
      if (full) this.placed.delete(stream.id);
      return full;
    } catch (err) {
      this.placed.delete(stream.id);
      throw err;
    }
  }

  /** Adds a stream (its place taken) to its team's feed; resolves once the feed knows its position. */
  async open(stream: Stream): Promise<void> {
    this.listen();
    let feed = this.feeds.get(stream.teamId);
    if (!feed) this.feeds.set(stream.teamId, (feed = new TeamFeed(stream.teamId)));
    feed.streams.add(stream);
    const forKey = this.byKey.get(stream.keyId) ?? new Set();
    this.byKey.set(stream.keyId, forKey.add(stream));
    this.sweeper ??= setInterval(() => void this.sweep(), SWEEP_MS).unref();
    await feed.placed();
  }

  /** Removes a stream (ended by either side) and gives its place back. */
  remove(stream: Stream): void {
    const feed = this.feeds.get(stream.teamId);
    if (feed?.streams.delete(stream) && !feed.streams.size) this.feeds.delete(stream.teamId);
    const forKey = this.byKey.get(stream.keyId);
    if (forKey?.delete(stream) && !forKey.size) this.byKey.delete(stream.keyId);
    if (this.placed.delete(stream.id)) this.counter.release(stream);
    if (!this.feeds.size && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = null;
    }
  }

  get size(): number {
    let n = 0;
    for (const feed of this.feeds.values()) n += feed.streams.size;
    return n;
  }

  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    const bus = liveBus();
    bus.onEvents((teamId) => this.feeds.get(teamId)?.poke());
    bus.onKey((keyId) => void (this.byKey.has(keyId) && this.checkKeys([keyId])));
  }

  /** Closes the streams of keys that are no longer valid (revoked, expired). */
  private async checkKeys(keyIds: string[]): Promise<void> {
    if (!keyIds.length) return;
    let valid: Set<string>;
    try {
      valid = new Set((await database.query<{ id: string }>(VALID_KEYS, [keyIds])).map((r) => r.id));
    } catch (err) {
      return void logger.warn({ err }, "could not check the keys of open live streams");
    }
    for (const keyId of keyIds) {
      if (valid.has(keyId)) continue;
      for (const stream of [...(this.byKey.get(keyId) ?? [])]) stream.close(Object.assign(new Error("Invalid API key"), { status: 401 }));
    }
  }

  private async sweep(): Promise<void> {
    await this.checkKeys([...this.byKey.keys()]);
    for (const feed of this.feeds.values()) feed.poke();
    if (Date.now() - this.lastRefresh > STREAM_LEASE_MS / 4) {
      this.lastRefresh = Date.now();
      this.counter.refresh([...this.byKey.values()].flatMap((set) => [...set]));
    }
  }

  /** Ends every open stream (graceful stop) and closes the stream counter's connection. */
  async closeAll(): Promise<void> {
    for (const feed of [...this.feeds.values()]) for (const stream of [...feed.streams]) stream.close();
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
    await this.counter.close();
  }
}

let streams: LiveStreams | undefined;

/** This process's streams (made on first use). */
export const liveStreams = (): LiveStreams => (streams ??= new LiveStreams());

/** Ends every open stream and closes the connections live updates opened (at shutdown). */
export async function closeLiveStreams(): Promise<void> {
  const open = streams;
  streams = undefined;
  await open?.closeAll();
}

export const newStreamId = (): string => randomUUID();
export { rowsAfter };
