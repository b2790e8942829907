// One answer per event for every stream that asked for the same thing (docs/api.md "Live updates"). Streams whose
// subscriptions have the same document, operation and variables, and whose keys have the same team and permissions,
// would each build the same answer for an event: it is built once, by the first of them to send that event (the
// others wait for it), and the same bytes are written to each. Answers are kept by (that selection, event id) in one
// LRU bounded in bytes; a stream far behind the others may find its answer evicted and build it again.
//
// An answer is built by the engine (src/schema/engine.ts), which stops one growing past MAX_RESPONSE_BYTES; one that
// still ends larger is sent as an error event instead, with the event's id (the stream goes on).
import { createHash } from "node:crypto";
import { mapAsyncIterator, type SubscribeFunction } from "@envelop/core";
import { createSourceEventStream, GraphQLError, print, type DocumentNode, type ExecutionArgs, type ExecutionResult } from "graphql";
import { isAsyncIterable } from "graphql-yoga";
import { LRUCache } from "lru-cache";
import { config } from "../config";
import type { Context } from "../context";
import { execute } from "../schema/engine";
import type { LiveRow } from "../live/streams";

/** The event id a result is for (the SSE writer's `id:` line). */
export const LIVE_EVENT_ID = Symbol("liveEventId");
/** A result's whole SSE event, encoded once for every stream that sends it (results without errors only). */
export const LIVE_FRAME = Symbol("liveFrame");

export type LiveResult = ExecutionResult & { [LIVE_EVENT_ID]?: string; [LIVE_FRAME]?: Uint8Array };

/** Bytes of answers kept for the streams that have not sent them yet. */
const KEPT_BYTES = 32 * 1024 * 1024;

const encoder = new TextEncoder();

/** One SSE event: graphql-yoga's `event: next` with its data, after the event's `id:` line. */
export const nextEvent = (id: string | undefined, json: string): Uint8Array =>
  encoder.encode(`${id ? `id: ${id}\n` : ""}event: next\ndata: ${json}\n\n`);

/** Answers built, by selection and event; a fetch of one being built waits for it (built once). */
const answers = new LRUCache<string, LiveResult, () => Promise<LiveResult>>({
  maxSize: KEPT_BYTES,
  sizeCalculation: (result) => Math.max(1, result[LIVE_FRAME]?.byteLength ?? 1),
  fetchMethod: (_key, _stale, { context }) => context(),
});

/** How many answers were built (tests and the bench read it: N streams of one selection build one per event). */
export const liveRenders = { count: 0 };

let turns: Promise<void> = Promise.resolve();

/**
 * Resolves in an event-loop turn of its own, after those asked for before: the streams an answer is ready for write
 * it one per turn, so the requests arriving meanwhile are answered between them instead of after all of them.
 */
function turn(): Promise<void> {
  turns = turns.then(() => new Promise((resolve) => setImmediate(resolve)));
  return turns;
}

const texts = new WeakMap<DocumentNode, string>();

/** What makes two subscriptions' answers the same: team, permissions, document, operation, variables. */
function selectionOf(args: ExecutionArgs): string | null {
  const viewer = (args.contextValue as Context | undefined)?.viewer;
  if (!viewer) return null;
  let text = texts.get(args.document);
  if (text === undefined) texts.set(args.document, (text = print(args.document)));
  const permissions = Object.entries(viewer.permissions)
    .map(([resource, actions]) => `${resource}:${[...(actions ?? [])].sort().join(",")}`)
    .sort();
  const parts = [viewer.teamId, permissions, args.operationName ?? null, args.variableValues ?? {}, text];
  return createHash("sha256").update(JSON.stringify(parts)).digest("base64url");
}

const tooLarge = (bytes: number) =>
  new GraphQLError(
    `Response too large: this event's answer is ${bytes} bytes (at most ${config.MAX_RESPONSE_BYTES}); select fewer fields`,
    { extensions: { code: "QUERY_TOO_COMPLEX" } },
  );

/** Builds the answer to one event (or to the error that ends a stream) and, without errors, its SSE bytes. */
async function answer(args: ExecutionArgs, item: unknown): Promise<LiveResult> {
  liveRenders.count++;
  const id = item instanceof GraphQLError ? undefined : (item as LiveRow).id;
  // A context of its own per event (over the stream's): the engine's per-execution counts and Pothos's per-context
  // caches start afresh, so no event is answered from an earlier one's loads.
  const contextValue = Object.create(args.contextValue as object) as object;
  const result: LiveResult = { ...(await execute({ ...args, contextValue, rootValue: item })), [LIVE_EVENT_ID]: id };
  if (result.errors?.length) return result;
  const json = JSON.stringify(result);
  const frame = nextEvent(id, json);
  // The SSE framing adds a few dozen bytes; the answer itself is what is bounded.
  if (frame.byteLength - 64 > config.MAX_RESPONSE_BYTES) return { data: null, errors: [tooLarge(frame.byteLength)], [LIVE_EVENT_ID]: id };
  return { ...result, [LIVE_FRAME]: frame };
}

/**
 * graphql-yoga's subscribe, answering each event once per selection: the subscription's source stream (its
 * `subscribe` resolver: src/schema/types/live-events.ts) mapped to shared answers.
 */
export const liveSubscribe: SubscribeFunction = async (args) => {
  const source = await createSourceEventStream(args as ExecutionArgs);
  if (!isAsyncIterable(source)) return source;
  const selection = selectionOf(args as ExecutionArgs);
  return mapAsyncIterator(source, async (item: unknown) => {
    const build = () => answer(args as ExecutionArgs, item);
    const result = !selection || item instanceof GraphQLError ? await build() : ((await answers.fetch(`${selection}:${(item as LiveRow).id}`, { context: build })) ?? (await build()));
    await turn();
    return result;
  });
};
