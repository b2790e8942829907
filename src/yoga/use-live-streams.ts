// The answer of a subscription request (docs/api.md "Live updates"). A stream that opened is written as graphql-yoga
// writes server-sent events (a `:` comment first and every 12 s as keep-alive, `event: next` per result, `event:
// complete` at the end) with one addition: each event's `id:` line, so a client resuming sends it back as
// Last-Event-ID. A subscription refused before its stream opened (unknown report, a permission, the key's streams
// full, not asked for as text/event-stream) is answered as JSON with its status instead of a one-event stream.
import type { RequestHandler } from "express";
import { isAsyncIterable, type Plugin } from "graphql-yoga";
import { notAnswering } from "../http/activity";
import type { ExecutionResult, GraphQLFormattedError } from "graphql";
import { LIVE_EVENT_ID, LIVE_FRAME, liveSubscribe, nextEvent, type LiveResult } from "./live-render";

const KEEP_ALIVE_MS = 12_000;

/** The result without what is for the server only (an error's `http` extension). */
function withoutInternals(result: ExecutionResult): object {
  if (!result.errors?.length) return result;
  const errors: GraphQLFormattedError[] = result.errors.map((error) => {
    const json = error.toJSON();
    const { http: _http, unexpected: _unexpected, ...extensions } = (json.extensions ?? {}) as Record<string, unknown>;
    return { ...json, extensions };
  });
  return { ...result, errors };
}

function statusOf(result: ExecutionResult): number {
  const statuses = (result.errors ?? []).map((error) => {
    const ext = error.extensions as { http?: { status?: number }; status?: number; code?: string } | undefined;
    return ext?.http?.status ?? ext?.status ?? (ext?.code === "INTERNAL_SERVER_ERROR" ? 500 : 400);
  });
  return statuses.length ? Math.max(...statuses) : 200;
}

type Processor = Parameters<Parameters<NonNullable<Plugin["onResultProcess"]>>[0]["setResultProcessor"]>[0];

const refusal: Processor = (result, fetchAPI) => {
  const single = (Array.isArray(result) ? result[0] : result) as ExecutionResult;
  return new fetchAPI.Response(JSON.stringify(withoutInternals(single)), {
    status: statusOf(single),
    headers: { "Content-Type": "application/json; charset=utf-8" },
  });
};

const stream: Processor = (result, fetchAPI) => {
  const encoder = new fetchAPI.TextEncoder();
  const iterator = (result as AsyncIterable<LiveResult>)[Symbol.asyncIterator]();
  let keepAlive: NodeJS.Timeout | undefined;
  const body = new fetchAPI.ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(":\n\n"));
      keepAlive = setInterval(() => {
        if (controller.desiredSize === null) return clearInterval(keepAlive);
        if (controller.desiredSize > 0) controller.enqueue(encoder.encode(":\n\n"));
      }, KEEP_ALIVE_MS);
    },
    async pull(controller) {
      try {
        const { value, done } = await iterator.next();
        // An answer without errors comes with its bytes, shared by every stream that sends it (./live-render.ts).
        if (value != null) controller.enqueue(!value.errors && value[LIVE_FRAME] ? value[LIVE_FRAME] : nextEvent(value[LIVE_EVENT_ID], JSON.stringify(withoutInternals(value))));
        if (done) {
          controller.enqueue(encoder.encode("event: complete\ndata:\n\n"));
          clearInterval(keepAlive);
          controller.close();
        }
      } catch (err) {
        clearInterval(keepAlive);
        controller.error(err);
      }
    },
    async cancel() {
      clearInterval(keepAlive);
      await iterator.return?.();
    },
  });
  return new fetchAPI.Response(body, {
    status: 200,
    headers: { "Content-Type": "text/event-stream", Connection: "keep-alive", "Cache-Control": "no-cache", "Content-Encoding": "none", "X-Accel-Buffering": "no" },
  });
};

/** Yoga plugin: subscriptions answer as above, each event answered once per selection (./live-render.ts). */
export function useLiveStreams(): Plugin {
  const subscriptions = new WeakSet<Request>();
  return {
    onSubscribe({ args, setSubscribeFn }) {
      const request = (args.contextValue as { request?: Request }).request;
      if (request) subscriptions.add(request);
      setSubscribeFn(liveSubscribe);
    },
    onResultProcess({ request, result, setResultProcessor }) {
      if (subscriptions.has(request)) {
        if (isAsyncIterable(result)) setResultProcessor(stream, "text/event-stream");
        else setResultProcessor(refusal, "application/json");
        return;
      }
      // Refused before anything ran (its parameters, its key, validation, the limits): for a request asking for an
      // event stream or for parts (multipart/mixed, @defer/@stream), too, the refusal is JSON with its status.
      const single = !isAsyncIterable(result) && !Array.isArray(result) ? (result as ExecutionResult) : null;
      if (single?.errors?.length && single.data == null && /text\/event-stream|multipart\/mixed/i.test(request.headers.get("accept") ?? "")) {
        setResultProcessor(refusal, "application/json");
      }
    },
  };
}

/**
 * Express, before Yoga: a request asking for an event stream is not counted as one being answered (the webhook
 * worker would otherwise yield to it for as long as it stays open).
 */
export const streamRequests: RequestHandler = (req, res, next) => {
  if ((req.headers.accept ?? "").includes("text/event-stream")) notAnswering(res);
  next();
};
