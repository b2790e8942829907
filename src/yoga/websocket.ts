// GraphQL over WebSocket (docs/api.md "WebSocket transport"): the graphql-transport-ws protocol (graphql-ws) at
// /graphql on the HTTP server's port, beside GET/POST and server-sent events, for clients that speak only WebSocket.
//
// - The key: `connection_init`'s payload `{ "authorization": "Bearer <key>" }` (never the URL). Missing or malformed
//   or unknown: closed 4401; revoked or expired: 4403. An address sending bad keys spends its anonymous budget as
//   over HTTP (past it: 4429).
// - Each `subscribe` message is one request: the key is read again (4403 once it is no longer valid), one point of
//   its hourly budget is counted (past it: an `error` message RATE_LIMITED), and the operation runs through Yoga's
//   envelop — the same plugins as HTTP (limits, mutation cost, engine, live streams and their caps, error masking);
//   a persisted-query hash and the trusted-documents rule are resolved as over HTTP (src/graphql-documents/apq.ts).
// - Subscriptions are the live streams of src/live/streams.ts (one count of open streams per key, team and process for
//   every transport); an event's answer is the one built for every stream of the same selection (src/yoga/live-render.ts), its
//   JSON text written into each socket's `next` message without being serialised again.
// - A stream ended because its key was revoked or rolled out closes the socket 4403.
// - Server pings every KEEP_ALIVE_MS (a socket that does not answer within as long is dropped); messages larger than
//   MAX_MESSAGE_BYTES close the socket 1009; a browser's Origin must be this service's own or one of CORS_ORIGINS.
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { CloseCode, makeServer, type Context as WsContext, type SubscribePayload } from "graphql-ws";
import type { Application } from "express";
import { GraphQLError, type ExecutionArgs, type ExecutionResult, type GraphQLFormattedError } from "graphql";
import type { YogaServerInstance } from "graphql-yoga";
import { WebSocketServer, type WebSocket } from "ws";
import { isValidKey } from "../auth/key-check";
import { findKey } from "../auth/key-lookup";
import { hashApiKey, isWellFormedKey, keyDisplayPrefix, rateKey } from "../auth/keys";
import { applyLimit, type RateLimiter } from "../auth/rate-limit";
import { tierLimit } from "../auth/tiers";
import { countCall } from "../auth/usage";
import { config } from "../config";
import type { Context } from "../context";
import { persistedQueryHash, resolvePersistedQuery } from "../graphql-documents/apq";
import { sha256Hex } from "../graphql-documents/documents";
import { logger } from "../logger";
import { graphqlNesting, jsonDepth } from "../http/nesting";
import { QUERY_TOO_COMPLEX, TEXT_LIMITS } from "../schema/limits";
import { LIVE_FRAME, type LiveResult } from "./live-render";
import { WEBSOCKET, type WebSocketOperation } from "../live/websocket-operation";

export const WEBSOCKET_PATH = "/graphql";
/** Largest message a client may send (the HTTP body limit): a larger one closes the socket 1009. */
export const MAX_MESSAGE_BYTES = 1024 * 1024;
/** Server pings this often; a socket that has not answered by the next ping is dropped. */
export const KEEP_ALIVE_MS = 12_000;
/** A socket that has not sent connection_init this long after opening is closed 4408. */
const INIT_WAIT_MS = 5_000;

const RATE_LIMITED = "Rate limit exceeded. Please try again later.";

/** What a socket knows once its connection_init was accepted. */
interface SocketKey {
  keyHash: string;
  token: string;
}

interface Extra {
  socket: WebSocket;
  request: IncomingMessage;
  key?: SocketKey;
  /**
   * Set when a stream's key was revoked: the socket closes 4403 right behind the message saying so, before the
   * stream's `complete` (which would let a lazy client close first, with 1000).
   */
  revoked?: boolean;
}

const EVENT_ID = /^evt_[A-Za-z0-9_-]{1,64}$/;

const refusal = (message: string, code: string, status: number) => new GraphQLError(message, { extensions: { code, status } });

/** An error as a client reads it: without what is for the server only (the `http` extension). */
function formatted(error: GraphQLError | GraphQLFormattedError): GraphQLFormattedError {
  const json = error instanceof GraphQLError ? error.toJSON() : error;
  if (!json.extensions) return json;
  const { http: _http, unexpected: _unexpected, ...extensions } = json.extensions as Record<string, unknown>;
  return { ...json, extensions };
}

/** The text bounds Yoga's parameters hook checks over HTTP (./limits.ts useQueryLimits), for a message's text. */
function textRefusal(query: string, variables: unknown): GraphQLError | undefined {
  if (graphqlNesting(query, TEXT_LIMITS.nesting) > TEXT_LIMITS.nesting) {
    return refusal(`Query too complex: it is nested more than ${TEXT_LIMITS.nesting} levels deep`, QUERY_TOO_COMPLEX, 400);
  }
  if (jsonDepth(variables, TEXT_LIMITS.variablesNesting + 1) > TEXT_LIMITS.variablesNesting + 1) {
    return refusal(`variables are nested more than ${TEXT_LIMITS.variablesNesting} levels deep`, "BAD_USER_INPUT", 400);
  }
  return undefined;
}

/** Whether an origin a browser sent may open a socket: the service's own (the Host it called) or one of CORS_ORIGINS. */
export function originAllowed(origin: string | undefined, host: string | undefined, allowed: "*" | string[] = config.CORS_ORIGINS): boolean {
  if (origin === undefined) return true; // not a browser
  if (allowed === "*" || allowed.includes(origin)) return true;
  try {
    return host !== undefined && new URL(origin).host === host.toLowerCase();
  } catch {
    return false;
  }
}

/** Refuses an upgrade before it becomes a WebSocket: a JSON error answer, then the connection closes. */
function refuseUpgrade(socket: Duplex, status: number, reason: string, message: string): void {
  const body = JSON.stringify({ error: { message, status } });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

// A `next` message whose payload is a live event's shared answer: its JSON text, made once per event (not once per
// socket), is put in place of a marker as the message is sent (stringify and send happen in one turn).
const LIVE_MARKER = "\u0000prs-live-payload\u0000";
const MARKER_JSON = JSON.stringify(LIVE_MARKER);
const payloadTexts = new WeakMap<Uint8Array, string>();
let pendingPayload: string | null = null;

function liveText(frame: Uint8Array): string {
  let text = payloadTexts.get(frame);
  if (text === undefined) {
    // The SSE frame: optional `id: …` line, `event: next`, `data: <json>`, blank line (src/yoga/live-render.ts nextEvent).
    const sse = Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength).toString("utf8");
    const start = sse.indexOf("\ndata: ") + 7;
    text = sse.slice(start, sse.length - 2);
    payloadTexts.set(frame, text);
  }
  return text;
}

const replacer = function (this: unknown, key: string, value: unknown): unknown {
  if (key === "payload" && value && typeof value === "object" && (value as LiveResult)[LIVE_FRAME]) {
    pendingPayload = liveText((value as LiveResult)[LIVE_FRAME]!);
    return LIVE_MARKER;
  }
  return value;
};

export interface GraphQLWebSockets {
  /** The HTTP server's `upgrade` listener. */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Open sockets. */
  readonly size: number;
  /** Closes every socket (1001, going away: a client reconnects, to another process) and stops accepting. */
  close(): Promise<void>;
}

type Yoga = YogaServerInstance<Record<string, unknown>, Record<string, unknown>>;
type Enveloped = ReturnType<Yoga["getEnveloped"]>;

type WsCtx = WsContext<Record<string, unknown>, Extra>;

/** Closes the socket and answers the operation that found its key gone. */
function keyGone(ctx: WsCtx): GraphQLError[] {
  ctx.extra.socket.close(CloseCode.Forbidden, "Forbidden: the API key was revoked or has expired");
  return [refusal("Invalid API key", "UNAUTHENTICATED", 401)];
}

/** connection_init: the key in its payload, or the socket closed 4401 (missing, unknown), 4403 (revoked) or 4429. */
const onConnect = (limiter: RateLimiter) => async (ctx: WsCtx): Promise<boolean> => {
  const { socket, request } = ctx.extra;
  const header = ctx.connectionParams?.authorization;
  const match = typeof header === "string" ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  const token = match && isWellFormedKey(match[1]) ? match[1] : null;
  const keyHash = token ? hashApiKey(token) : null;
  const key = keyHash ? await findKey(keyHash) : undefined;
  if (key && isValidKey(key, Date.now())) {
    ctx.extra.key = { keyHash: keyHash!, token: token! };
    return true;
  }
  if (header !== undefined) {
    // Guessing keys spends the address's anonymous budget, as over HTTP.
    const count = applyLimit(await limiter.hit(`ip:${request.socket.remoteAddress}`), config.RATE_LIMIT_ANONYMOUS);
    if (count.exceeded) {
      socket.close(CloseCode.TooManyInitialisationRequests, RATE_LIMITED);
      return false;
    }
  }
  if (key) socket.close(CloseCode.Forbidden, "Forbidden: the API key was revoked or has expired");
  else socket.close(CloseCode.Unauthorized, 'Unauthorized: send { "authorization": "Bearer <API key>" } as connection_init\'s payload');
  return false;
};

/** A subscribe message: one request of the socket's key, run through Yoga's envelop (execute/subscribe by its context). */
const onSubscribe =
  (yoga: Yoga, limiter: RateLimiter, envelopes: WeakMap<object, Enveloped>) =>
  async (ctx: WsCtx, _id: string, payload: SubscribePayload): Promise<ExecutionArgs | readonly GraphQLError[]> => {
    try {
      const { key: socketKey, request } = ctx.extra;
      if (!socketKey) return keyGone(ctx);
      const key = await findKey(socketKey.keyHash);
      if (!isValidKey(key, Date.now())) return keyGone(ctx);
      // One request: one point of the key's hourly budget.
      const limit = tierLimit(key.rate_limit_tier);
      const count = applyLimit(await limiter.hit(rateKey(key), undefined, limit), limit);
      if (count.exceeded) {
        const retryAfter = Math.max(1, count.resetsAt - Math.floor(Date.now() / 1000));
        return [new GraphQLError(RATE_LIMITED, { extensions: { code: "RATE_LIMITED", status: 429, retryAfter } })];
      }
      countCall(key.team_id, key.id);
      const viewer = {
        keyId: key.id,
        keyPrefix: keyDisplayPrefix(socketKey.token),
        teamId: key.team_id,
        permissions: key.permissions,
        tier: key.rate_limit_tier,
        trustedDocumentsOnly: key.trusted_documents_only,
      };
      const extensions = (payload.extensions ?? {}) as Record<string, unknown>;
      let query: string = payload.query;
      const hash = persistedQueryHash(extensions);
      if (hash !== null) query = (await resolvePersistedQuery(viewer, hash, query)).query;
      else if (viewer.trustedDocumentsOnly) {
        // Over WebSocket a registered document may also be sent as its text: the hash names it.
        query = (await resolvePersistedQuery(viewer, sha256Hex(query), undefined)).query;
      }
      const lastEventId = typeof extensions.lastEventId === "string" ? extensions.lastEventId : null;
      if (lastEventId !== null && !EVENT_ID.test(lastEventId)) return [refusal("extensions.lastEventId must be the id of an event a stream sent (evt_…)", "BAD_USER_INPUT", 400)];
      const tooDeep = textRefusal(query, payload.variables);
      if (tooDeep) return [tooDeep];
      const params = { query, variables: payload.variables ?? undefined, operationName: payload.operationName ?? undefined, extensions };
      const context: Context & { [WEBSOCKET]: WebSocketOperation; params: typeof params } = {
        viewer,
        rateLimit: { tier: key.rate_limit_tier, limit, remaining: count.remaining, resetsAt: count.resetsAt },
        clientAddress: request.socket.remoteAddress,
        rateLimiter: limiter,
        rateKey: rateKey(key),
        params,
        [WEBSOCKET]: { lastEventId },
      };
      const enveloped = yoga.getEnveloped(context as unknown as Record<string, unknown>);
      const document = enveloped.parse(query);
      const errors = enveloped.validate(enveloped.schema, document);
      if (errors.length) return [...errors];
      const contextValue = (await enveloped.contextFactory()) as object;
      envelopes.set(contextValue, enveloped);
      const args: ExecutionArgs = { schema: enveloped.schema, document, contextValue, variableValues: payload.variables, operationName: payload.operationName };
      return args;
    } catch (err) {
      if (err instanceof GraphQLError) return [err];
      logger.error({ err }, "could not start a WebSocket operation");
      return [refusal("Unexpected error.", "INTERNAL_SERVER_ERROR", 500)];
    }
  };

export function graphqlWebSockets(yoga: Yoga, limiter: RateLimiter): GraphQLWebSockets {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, handleProtocols: (protocols) => (protocols.has("graphql-transport-ws") ? "graphql-transport-ws" : false) });
  /** The envelop of each operation, by its context: execute and subscribe run through it. */
  const envelopes = new WeakMap<object, Enveloped>();

  const server = makeServer<Record<string, unknown>, Extra>({
    connectionInitWaitTimeout: INIT_WAIT_MS,
    jsonMessageReplacer: replacer,

    onConnect: onConnect(limiter),
    onSubscribe: onSubscribe(yoga, limiter, envelopes),
    execute: (args) => envelopes.get(args.contextValue as object)!.execute(args) as Promise<ExecutionResult>,
    subscribe: (args) => envelopes.get(args.contextValue as object)!.subscribe(args) as Promise<ExecutionResult>,

    onNext(ctx, _id, _payload, _args, result) {
      const errors = (result as ExecutionResult).errors;
      if (!errors?.length) return undefined;
      // A live stream ended by its key's revocation (src/live/streams.ts): the socket goes with it.
      if (errors.some((e) => (e.extensions as { code?: string } | undefined)?.code === "UNAUTHENTICATED")) {
        ctx.extra.revoked = true;
      }
      return { ...(result as ExecutionResult), errors: errors.map(formatted) } as unknown as ExecutionResult;
    },
    onError: (_ctx, _id, _payload, errors) => errors.map(formatted),
  });

  wss.on("connection", (socket: WebSocket, request: IncomingMessage) => {
    const extra: Extra = { socket, request };
    let alive = true;
    const ping = setInterval(() => {
      if (!alive) return void socket.terminate();
      alive = false;
      socket.ping();
    }, KEEP_ALIVE_MS);
    socket.on("pong", () => (alive = true));
    socket.on("error", () => socket.terminate()); // a frame too large (1009 sent) or malformed: already closing
    const closed = server.opened(
      {
        protocol: socket.protocol,
        send: (data) =>
          new Promise<void>((resolve) => {
            if (socket.readyState !== socket.OPEN) return resolve();
            let text = data;
            if (pendingPayload !== null) {
              text = data.replace(MARKER_JSON, pendingPayload);
              pendingPayload = null;
            }
            socket.send(text, () => resolve());
            if (extra.revoked) socket.close(CloseCode.Forbidden, "Forbidden: the API key was revoked or has expired");
          }),
        close: (code, reason) => socket.close(code, reason),
        onMessage: (cb) =>
          socket.on("message", (data, isBinary) => {
            if (isBinary) return void socket.close(CloseCode.BadRequest, "Messages are JSON text");
            cb(String(data)).catch((err: unknown) => {
              logger.error({ err }, "WebSocket message handling failed");
              socket.close(CloseCode.InternalServerError, "Internal server error");
            });
          }),
      },
      extra,
    );
    socket.once("close", (code, reason) => {
      clearInterval(ping);
      void closed(code, String(reason));
    });
  });

  return {
    upgrade(request, socket, head) {
      const path = (request.url ?? "").split("?")[0];
      if (path !== WEBSOCKET_PATH) return refuseUpgrade(socket, 404, "Not Found", `Not found: WebSocket connections are accepted at ${WEBSOCKET_PATH} only`);
      if (!originAllowed(request.headers.origin, request.headers.host)) {
        return refuseUpgrade(socket, 403, "Forbidden", `Origin ${String(request.headers.origin).slice(0, 200)} may not open a WebSocket to this service (CORS_ORIGINS)`);
      }
      wss.handleUpgrade(request, socket, head, (ws) => wss.emit("connection", ws, request));
    },
    get size() {
      return wss.clients.size;
    },
    async close() {
      for (const client of wss.clients) client.close(1001, "Going away");
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      for (const client of wss.clients) client.terminate();
    },
  };
}

/** The app's WebSocket endpoint (src/app.ts keeps it in app.locals), served on `server`'s upgrades from now on. */
export function attachWebSockets(server: Server, app: Application): GraphQLWebSockets | undefined {
  const sockets = (app.locals as { webSockets?: GraphQLWebSockets }).webSockets;
  if (sockets) server.on("upgrade", sockets.upgrade);
  return sockets;
}
