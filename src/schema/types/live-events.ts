// Live updates (docs/api.md "Live updates"): GraphQL subscriptions, answered over server-sent events by
// graphql-yoga (src/yoga/use-live-streams.ts writes each event's id). `reportEvents(reportId)` streams one report's changes,
// `teamEvents(types)` the team's; each event is an outbox row (src/live/streams.ts) whose changed object is read when
// the event is sent, as its query answers it. Checked when subscribing (the key's permissions, the report in the
// key's team, the key's open streams) and for every event (events about what the key may not read are not sent).
import { GraphQLError } from "graphql";
import { can, type Permission } from "../../auth/permissions";
import type { Context, Viewer } from "../../context";
import { prisma } from "../../db";
import { logger } from "../../logger";
import { config } from "../../config";
import {
  lastPosition,
  liveStreams,
  MAX_STREAMS_PER_KEY,
  MAX_STREAMS_PER_TEAM,
  OUTBOX_PAGE,
  type LiveStreams,
  newStreamId,
  positionOf,
  rowsAfter,
  type LiveRow,
  type Stream,
  type StreamCap,
} from "../../live/streams";
import { websocketOf } from "../../live/websocket-operation";
import { EVENT_TYPES, type EventType } from "../../webhooks/catalog";
import { builder } from "../builder";
import { badField, notFound, permissionDenied } from "../errors";
import { isUuid, viewerOf } from "../scope";
import { REPORT_NOT_FOUND } from "../resources/report/lookup";

/** Event types a stream can carry (a webhook test goes to one endpoint only). */
export const LIVE_EVENT_TYPES = (Object.keys(EVENT_TYPES) as EventType[]).filter((type) => type !== "webhook.test");

/** The permission that reading an event of `type` needs: the one reading its changed object needs. */
export function permissionOf(type: string): Permission {
  const [subject] = type.split(".");
  switch (subject) {
    case "showing":
    case "visitor": // an open house's sign-in (docs/api.md "Open-house sign-in")
      return "showings:read";
    case "comparable":
    case "comparables":
      return "comparables:read";
    case "insight":
      return "ai_insights:read";
    case "social_posts":
      return "social_media:read";
    default:
      return "reports:read"; // report.*, summary.generated
  }
}

type Subject = "report" | "showing" | "comparable" | "insight";

/** Which object an event is about and its id: the event's own object, or its report for a change of a whole set. */
function subjectOf(row: LiveRow): { kind: Subject; id: string } {
  const [subject] = row.type.split(".");
  const id = String(row.data.id ?? "");
  if (subject === "showing" || subject === "comparable" || subject === "insight") return { kind: subject, id };
  if (subject === "report") return { kind: "report", id };
  return { kind: "report", id: String(row.data.report_id ?? "") }; // comparables.replaced, social_posts.imported, summary.generated
}

/** The report an event belongs to. */
const reportOf = (row: LiveRow): string => String(row.type.startsWith("report.") ? row.data.id : row.data.report_id);

/** The object of `row` when it is of `kind`, not deleted, and the key may read it: its id; else null. */
function objectId(row: LiveRow, kind: Subject, ctx: Context, permission: Permission): string | null {
  const subject = subjectOf(row);
  if (subject.kind !== kind || row.type.endsWith(".deleted") || !isUuid(subject.id)) return null;
  return ctx.viewer && can(ctx.viewer.permissions, permission) ? subject.id : null;
}

const LiveEvent = builder.objectRef<LiveRow>("LiveEvent").implement({
  description:
    "One committed change, as a live stream sends it. The object it changed is read when the event is sent and answered as its query " +
    "answers it; null when it was deleted (or the key may not read it). A change of a report's whole set (comparables.replaced, " +
    "social_posts.imported, summary.generated) carries the report.",
  fields: (t) => ({
    id: t.id({ description: "The event's id (as in webhooks and GET /v1/events): the SSE event id a stream resumes after (Last-Event-ID)", resolve: (row) => row.id }),
    type: t.string({ description: "The event type, e.g. showing.created (the webhook catalog's types)", resolve: (row) => row.type }),
    timestamp: t.field({ type: "DateTime", description: "When the change was recorded", resolve: (row) => row.timestamp }),
    report: t.prismaField({
      type: "Report",
      nullable: true,
      description: "The report, for report.* events and changes of a report's whole set; needs reports:read",
      resolve: (query, row, _args, ctx) => {
        const id = objectId(row, "report", ctx, "reports:read");
        return id ? prisma.report.findFirst({ ...query, where: { id, teamId: ctx.viewer!.teamId } }) : null;
      },
    }),
    showing: t.prismaField({
      type: "Showing",
      nullable: true,
      description: "The showing, for showing.* events",
      resolve: (query, row, _args, ctx) => {
        const id = objectId(row, "showing", ctx, "showings:read");
        return id ? prisma.showing.findFirst({ ...query, where: { id, teamId: ctx.viewer!.teamId } }) : null;
      },
    }),
    comparable: t.prismaField({
      type: "Comparable",
      nullable: true,
      description: "The comparable, for comparable.* events",
      resolve: (query, row, _args, ctx) => {
        const id = objectId(row, "comparable", ctx, "comparables:read");
        return id ? prisma.comparable.findFirst({ ...query, where: { id, teamId: ctx.viewer!.teamId } }) : null;
      },
    }),
    insight: t.prismaField({
      type: "AgentInsight",
      nullable: true,
      description: "The agent insight, for insight.* events",
      resolve: (query, row, _args, ctx) => {
        const id = objectId(row, "insight", ctx, "ai_insights:read");
        return id ? prisma.agentInsight.findFirst({ ...query, where: { id, teamId: ctx.viewer!.teamId } }) : null;
      },
    }),
    socialPost: t.prismaField({
      type: "SocialMediaPost",
      nullable: true,
      description: "A social media post, for events about one post. Posts change by import only, whose event (social_posts.imported) carries the report",
      resolve: () => null,
    }),
    attendee: t.prismaField({
      type: "Attendee",
      nullable: true,
      description: "The open house's attendee, with the contact given, for visitor.signed_in; needs attendees:read (null without it)",
      resolve: (query, row, _args, ctx) => {
        const id = String(row.data.id ?? "");
        if (row.type !== "visitor.signed_in" || !isUuid(id) || !ctx.viewer || !can(ctx.viewer.permissions, "attendees:read")) return null;
        return prisma.attendee.findFirst({ ...query, where: { id, teamId: ctx.viewer.teamId } });
      },
    }),
  }),
});

/** A refusal before a stream opens, with its HTTP status (src/yoga/use-live-streams.ts answers it as JSON). */
const refused = (message: string, status: number, code: string) => new GraphQLError(message, { extensions: { code, status, http: { status } } });

const EVENT_ID = /^evt_[A-Za-z0-9_-]{1,64}$/;

/** What a stream's request says beyond its arguments: that it asks for SSE, and where it resumes. */
function streamRequest(ctx: Context): { lastEventId: string | null } {
  const websocket = websocketOf(ctx); // its subscribe message's extensions.lastEventId, checked by src/yoga/websocket.ts
  if (websocket) return { lastEventId: websocket.lastEventId };
  const request = (ctx as Context & { request?: Request }).request;
  const accept = request?.headers.get("accept") ?? "";
  if (!/(^|,)\s*text\/event-stream/i.test(accept)) {
    throw refused("Subscriptions are answered as server-sent events: send the request with Accept: text/event-stream", 406, "NOT_ACCEPTABLE");
  }
  const lastEventId = request?.headers.get("last-event-id")?.trim() || null;
  if (lastEventId !== null && !EVENT_ID.test(lastEventId)) {
    throw refused("Last-Event-ID must be the id of an event a stream sent (evt_…)", 400, "BAD_USER_INPUT");
  }
  return { lastEventId };
}

/** An item of a stream: an event, or the error that ends it. */
type Item = LiveRow | GraphQLError;

/** Events a stream holds for a client that reads slower than they come before it is ended (it can resume). */
const MAX_QUEUED = 1_000;

/** One open stream: the feed hands it rows, the subscription reads them as an async iterator. */
class LiveStream implements Stream, AsyncIterableIterator<Item> {
  readonly id = newStreamId();
  private position = 0n;
  /** Rows the feed handed while the stream was still reading what it missed (null once it has). */
  private held: LiveRow[] | null = [];
  private readonly queue: Item[] = [];
  private waiting: ((result: IteratorResult<Item>) => void) | null = null;
  private ended = false;

  constructor(
    private readonly registry: LiveStreams,
    readonly viewer: Viewer,
    private readonly filter: (row: LiveRow) => boolean,
    private readonly endsAfter: (row: LiveRow) => boolean,
  ) {}

  get keyId() {
    return this.viewer.keyId;
  }
  get teamId() {
    return this.viewer.teamId;
  }

  wants(row: LiveRow): boolean {
    return can(this.viewer.permissions, permissionOf(row.type)) && this.filter(row);
  }

  /** Starts after `position`: reads what the outbox holds after it first, then the rows the feed handed meanwhile. */
  async start(position: bigint, catchUp: boolean): Promise<void> {
    this.position = position;
    try {
      if (catchUp) {
        for (;;) {
          const rows = await rowsAfter(this.teamId, this.position);
          rows.forEach((row) => this.accept(row));
          if (rows.length < OUTBOX_PAGE || this.ended) break;
        }
      }
      const held = this.held ?? [];
      this.held = null;
      held.forEach((row) => this.accept(row));
    } catch {
      this.close(refused("The stream could not read the events it missed; resume again with Last-Event-ID", 503, "SERVICE_UNAVAILABLE"));
    }
  }

  deliver(row: LiveRow): void {
    if (this.held) this.held.push(row);
    else this.accept(row);
  }

  private accept(row: LiveRow): void {
    if (this.ended || row.seq <= this.position) return;
    this.position = row.seq;
    if (!this.wants(row)) return;
    if (this.queue.length >= MAX_QUEUED) {
      return this.close(refused(`The client read more slowly than events came (${MAX_QUEUED} waiting): resume with Last-Event-ID`, 503, "STREAM_BEHIND"));
    }
    this.push(row);
    if (this.endsAfter(row)) this.close();
  }

  private push(item: Item): void {
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = null;
      resolve({ value: item, done: false });
    } else this.queue.push(item);
  }

  close(reason?: Error): void {
    if (this.ended) return;
    if (reason) this.push(reason instanceof GraphQLError ? reason : refused(reason.message, 401, "UNAUTHENTICATED"));
    this.ended = true;
    this.registry.remove(this);
    if (this.waiting && !this.queue.length) {
      const resolve = this.waiting;
      this.waiting = null;
      resolve({ value: undefined, done: true });
    }
  }

  next(): Promise<IteratorResult<Item>> {
    const item = this.queue.shift();
    if (item) return Promise.resolve({ value: item, done: false });
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  /** The client went away (or the server ends the response): the stream is removed at once. */
  return(): Promise<IteratorResult<Item>> {
    this.queue.length = 0;
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator]() {
    return this;
  }
}

/** The 429 of a full cap, naming it (extensions.cap: key, team or process). */
function tooManyStreams(cap: StreamCap): GraphQLError {
  const message = {
    key: `Too many open streams: a key holds at most ${MAX_STREAMS_PER_KEY}; close one first`,
    team: `Too many open streams: a team holds at most ${MAX_STREAMS_PER_TEAM} across its keys; close one first`,
    process: `Too many open streams on this server (at most ${config.MAX_STREAMS_PER_PROCESS}); try again in a moment`,
  }[cap];
  return new GraphQLError(message, { extensions: { code: "RATE_LIMITED", cap, status: 429, http: { status: 429 } } });
}

/** Opens a stream for the request's key: its place, its feed, and its start (after Last-Event-ID, or now). */
async function openStream(ctx: Context, filter: (row: LiveRow) => boolean, endsAfter: (row: LiveRow) => boolean = () => false): Promise<LiveStream> {
  const viewer = viewerOf(ctx);
  const { lastEventId } = streamRequest(ctx);
  let resumeAfter: bigint | null = null;
  if (lastEventId) {
    resumeAfter = await positionOf(viewer.teamId, lastEventId);
    if (resumeAfter === null) {
      throw refused(`Last-Event-ID ${lastEventId} is not an event of this team (unknown, or older than the 30 days events are kept): subscribe again without it and reload`, 400, "BAD_USER_INPUT");
    }
  }
  const live = liveStreams();
  const stream = new LiveStream(live, viewer, filter, endsAfter);
  const full = await live.take(stream).catch((err: unknown) => {
    logger.warn({ err }, "could not count the open live streams");
    throw refused("Live updates are unavailable for a moment (the count of open streams could not be read); try again", 503, "SERVICE_UNAVAILABLE");
  });
  if (full) throw tooManyStreams(full);
  try {
    await live.open(stream);
    // Without Last-Event-ID: after what is committed now (read once the stream is in its feed, so every later commit
    // reaches it; the feed itself may not have read everything before it yet).
    void stream.start(resumeAfter ?? (await lastPosition(viewer.teamId)), resumeAfter !== null);
  } catch (err) {
    stream.close();
    throw err;
  }
  return stream;
}

/** An event as its subscription's root value; the error that ends a stream is raised where the field resolves. */
function sent(item: Item): LiveRow {
  if (item instanceof GraphQLError) throw item;
  return item;
}

builder.subscriptionType({
  description:
    "Live updates over server-sent events (POST or GET /graphql with Accept: text/event-stream). Each event is one committed change; " +
    "a stream resumes after the event named by a Last-Event-ID header. At most 20 open streams per key.",
});

builder.subscriptionFields((t) => ({
  reportEvents: t.field({
    type: LiveEvent,
    description:
      "The changes of one report of the team: the report itself (created, updated, published, unpublished, deleted — the stream ends " +
      "after report.deleted), its showings, comparables, agent insights, social media posts and executive summary. Needs reports:read. " +
      "Events of showings, comparables, insights and posts also need that resource's read permission (others are not sent).",
    authScopes: { permission: "reports:read" },
    args: { reportId: t.arg.id({ required: true, description: "The report's id" }) },
    subscribe: async (_root, { reportId }, ctx) => {
      const viewer = viewerOf(ctx);
      if (!can(viewer.permissions, "reports:read")) throw permissionDenied("reports:read");
      const id = String(reportId);
      const found = isUuid(id) && (await prisma.report.findFirst({ where: { id, teamId: viewer.teamId }, select: { id: true } }));
      if (!found) throw notFound(REPORT_NOT_FOUND);
      return openStream(
        ctx,
        (row) => reportOf(row) === id,
        (row) => row.type === "report.deleted",
      );
    },
    resolve: (item) => sent(item as Item),
  }),
  teamEvents: t.field({
    type: LiveEvent,
    description:
      "The team's changes, optionally of some event types only (webhook event types, e.g. showing.created). Each type asked for needs " +
      "the read permission of its object; without types, every event the key may read is sent.",
    args: { types: t.arg.stringList({ description: `Event types to send (default: all): ${LIVE_EVENT_TYPES.join(", ")}` }) },
    subscribe: async (_root, { types }, ctx) => {
      const viewer = viewerOf(ctx);
      let wanted: Set<string> | null = null;
      if (types) {
        if (!types.length) throw badField(["types"], "must name at least one event type (leave it out for all)");
        if (types.length > LIVE_EVENT_TYPES.length) throw badField(["types"], `must hold at most ${LIVE_EVENT_TYPES.length} event types`);
        types.forEach((type, i) => {
          if (!(LIVE_EVENT_TYPES as string[]).includes(type)) {
            throw badField(["types", i], `must be an event type a stream sends (${LIVE_EVENT_TYPES.join(", ")}); got '${String(type).slice(0, 60)}'`);
          }
          if (!can(viewer.permissions, permissionOf(type))) throw permissionDenied(permissionOf(type));
        });
        wanted = new Set(types);
      }
      return openStream(ctx, (row) => !wanted || wanted.has(row.type));
    },
    resolve: (item) => sent(item as Item),
  }),
}));
