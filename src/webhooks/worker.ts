// Sends the events the outbox (./outbox.ts) recorded: runs in every server process, off the request path. Each round
// makes the deliveries of recorded events (one per subscribed endpoint), then claims due deliveries and sends them;
// the database side, shared by every process and fair between teams, is ./queue.ts. At most WEBHOOK_CONCURRENCY
// attempts are in flight per process, at most PER_ENDPOINT to any one endpoint, and the slots go to teams in turns,
// so a slow or dead receiver, or one team's backlog, cannot hold up the others. Requests come first: while the
// process keeps answering them, deliveries go out at a slow pace, and at full pace once it is quiet.
import { Webhook } from "standardwebhooks";
import type { Agent } from "undici";
import { openSealedFields } from "../attendees/crypto";
import { redactUrlsIn } from "../audit/redact";
import { config } from "../config";
import { database, prisma } from "../db";
import { quietForMs } from "../http/activity";
import { logger } from "../logger";
import { observeDelivery } from "../observability/deliveries";
import { checkHost, deliveryAgent, undici } from "./address";
import { crmRequest, type CrmRequest } from "./crm";
import { onEventsRecorded } from "./outbox";
import { claim, fanOut, prune, recordFailure, release, successWriter, type Claimed, type Held, type Outcome } from "./queue";

/** Oldest event first (events of one instant in a fixed order, by id). */
const byEvent = (a: Claimed, b: Claimed): number => a.createdAt.getTime() - b.createdAt.getTime() || (a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0);

const PRUNE_EVERY_MS = 60 * 60 * 1000;
const USER_AGENT = "PropertyReportService-Webhooks/1.0";
/** While requests keep coming, one claim (of up to WEBHOOK_CONCURRENCY deliveries) at most this often… */
const BUSY_CLAIM_EVERY_MS = 100;
/** …until no request has been answered for this long. */
const QUIET_MS = 20;
/** PGlite runs no autovacuum: the worker vacuums the delivery tables itself after this many outcomes, when quiet. */
const VACUUM_AFTER_OUTCOMES = 2000;
/** An attempt keeps this much of the receiver's answer (shown in the delivery log). */
const RESPONSE_BODY_BYTES = 1024;
/** Events fanned out by one statement at most. */
const FAN_OUT_BATCH = 200;

export interface DeliveryWorker {
  /** Looks for due deliveries now (after a commit that recorded events). */
  wake(): void;
  /** Stops claiming; waits up to `timeoutMs` for attempts in flight, then releases the rest for another process. */
  stop(timeoutMs?: number): Promise<void>;
}

/** The request body and Standard Webhooks headers of a delivery (signed by the current and, after a rotation, the previous secret). */
export function signedRequest(d: Pick<Claimed, "eventId" | "type" | "data" | "createdAt" | "secret" | "previousSecret" | "previousSecretExpiresAt">, now = new Date()) {
  const body = JSON.stringify({ id: d.eventId, type: d.type, timestamp: d.createdAt.toISOString(), data: openSealedFields(d.data) });
  const secrets = [d.secret, ...(d.previousSecret && d.previousSecretExpiresAt && d.previousSecretExpiresAt > now ? [d.previousSecret] : [])];
  const signature = secrets.map((secret) => new Webhook(secret).sign(d.eventId, now, body)).join(" ");
  const headers = {
    "content-type": "application/json",
    "user-agent": USER_AGENT,
    "webhook-id": d.eventId,
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    "webhook-signature": signature,
  };
  return { body, headers };
}

/**
 * Why an attempt failed, as the delivery records it: a URL the message quotes (fetch refuses one with credentials,
 * naming it) is redacted first (src/audit/redact.ts).
 */
const describe = (err: unknown): string => {
  if (err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError")) return `No answer within ${config.WEBHOOK_TIMEOUT_MS} ms`;
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  return redactUrlsIn(cause instanceof Error ? cause.message : String(cause)).slice(0, 500);
};

/**
 * User info in an endpoint's URL (https://user:password@host/…) is sent as HTTP Basic authentication, as curl or a
 * browser would send it: fetch refuses a URL that carries it, and receivers behind Basic auth are common.
 */
const basicAuth = (url: URL): Record<string, string> =>
  url.username || url.password
    ? { authorization: `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString("base64")}` }
    : {};
const withoutUserInfo = (url: URL): string => Object.assign(new URL(url.href), { username: "", password: "" }).href;

/**
 * What to send for a delivery: a webhook's signed event, or a CRM destination's request (./crm.ts), which may be
 * refused by rule (nothing is sent).
 */
async function requestOf(d: Claimed): Promise<CrmRequest> {
  if (d.kind === "webhook") return { url: d.url, ...signedRequest(d) };
  return crmRequest(d, (data) => signedRequest({ ...d, data }));
}

/** The headers an attempt sent, as its delivery records them: credentials (a CRM's key, a URL's user info) redacted. */
const recordedHeaders = (headers: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, name.toLowerCase() === "authorization" ? "[redacted]" : value]));

/** The first RESPONSE_BODY_BYTES of an answer's body as text (the rest is not read); what arrived when the read fails. */
async function firstBytes(body: { getReader(): ReadableStreamDefaultReader<Uint8Array> } | null): Promise<string> {
  if (!body) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    while (length < RESPONSE_BODY_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value as Uint8Array);
      length += value.length;
    }
  } catch {
    // a timeout or a reset part-way through the body: keep what came
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, RESPONSE_BODY_BYTES)).replace(/\uFFFD$/, "");
}

/** Sends one attempt and says how it went: 2xx succeeded; anything else, a timeout or a connection error failed. */
async function attempt(agent: Agent, d: Claimed): Promise<Outcome> {
  const started = Date.now();
  let requestHeaders: Record<string, string> | null = null;
  try {
    const request = await requestOf(d);
    if ("refused" in request) return { responseStatus: null, error: request.refused, durationMs: Date.now() - started, refused: true };
    const { body } = request;
    const target = new URL(request.url);
    const headers = { ...request.headers, ...basicAuth(target) };
    requestHeaders = recordedHeaders(headers);
    await checkHost(target.hostname);
    const res = await undici().fetch(withoutUserInfo(target), {
      method: "POST",
      body,
      headers,
      dispatcher: agent,
      redirect: "manual",
      signal: AbortSignal.timeout(config.WEBHOOK_TIMEOUT_MS),
    });
    const responseBody = await firstBytes(res.body);
    const ok = res.status >= 200 && res.status < 300;
    return { responseStatus: res.status, error: ok ? null : `HTTP ${res.status}`, durationMs: Date.now() - started, requestHeaders, responseBody };
  } catch (err) {
    return { responseStatus: null, error: describe(err), durationMs: Date.now() - started, requestHeaders };
  }
}

interface InFlight {
  teamId: string;
  endpointId: string;
  done: Promise<void>;
}

/** Attempts in flight per team and per endpoint (a claim gives the free slots in turns by them). */
function heldBy(inFlight: Map<string, InFlight>): Held {
  const held: Held = { teams: new Map(), endpoints: new Map() };
  for (const { teamId, endpointId } of inFlight.values()) {
    held.teams.set(teamId, (held.teams.get(teamId) ?? 0) + 1);
    held.endpoints.set(endpointId, (held.endpoints.get(endpointId) ?? 0) + 1);
  }
  return held;
}

/**
 * Requests come first: while this process keeps answering them, claims run once per BUSY_CLAIM_EVERY_MS (so
 * deliveries still go out, up to WEBHOOK_CONCURRENCY × 10 a second), at full pace once it has been quiet for QUIET_MS.
 */
function claimPacing(retry: () => void) {
  let lastClaim = 0;
  let later: NodeJS.Timeout | null = null; // the claim put off while busy
  return {
    /** Whether a claim may run now (counted as made); if not, `retry` runs when it may. */
    claimNow(): boolean {
      const wait = quietForMs() >= QUIET_MS ? 0 : lastClaim + BUSY_CLAIM_EVERY_MS - Date.now();
      if (wait > 0) {
        later ??= setTimeout(() => ((later = null), retry()), Math.min(wait, QUIET_MS));
        return false;
      }
      if (later) {
        clearTimeout(later);
        later = null;
      }
      lastClaim = Date.now();
      return true;
    },
    cancel: () => later && clearTimeout(later),
  };
}

/** Every update of a delivery leaves a dead row; without vacuum the claim's index scans wade through them all. */
async function vacuum(): Promise<void> {
  if (database.kind === "pglite") await prisma.$executeRawUnsafe("VACUUM ANALYZE webhook_deliveries, webhook_events");
}

export function startDeliveryWorker(): DeliveryWorker {
  const agent = deliveryAgent();
  const inFlight = new Map<string, InFlight>();
  const recording = new Set<Promise<void>>(); // outcomes of finished attempts still being written
  const succeeded = successWriter();
  let stopping = false;
  let looking = false;
  let again = false;
  let outcomes = 0; // since the last vacuum (PGlite)
  let fanOutDue = true; // events may wait for their deliveries: at start, after a commit that recorded some, on each poll

  function record(d: Claimed, o: Outcome): Promise<void> {
    outcomes++;
    return o.error === null ? succeeded.load({ ...o, id: d.id, responseStatus: o.responseStatus! }) : recordFailure(d, o);
  }

  /** Sends the claimed deliveries. An attempt's slot is free once the receiver answered; its outcome is written after. */
  function send(deliveries: Claimed[]): void {
    // Started in the order of their events (a claim's rows come back in any order): two attempts to one endpoint
    // then reach it in the order the changes were made, as a receiver would expect (no promise: see the README).
    for (const d of deliveries.sort(byEvent)) {
      const done = observeDelivery(d, () => attempt(agent, d)).then((outcome) => {
        inFlight.delete(d.id);
        if (!stopping) wake();
        const written: Promise<void> = record(d, outcome)
          .catch((err) => logger.error({ err, deliveryId: d.id }, "could not record a webhook delivery"))
          .finally(() => recording.delete(written));
        recording.add(written);
      });
      inFlight.set(d.id, { teamId: d.teamId, endpointId: d.endpointId, done });
    }
  }

  /**
   * Makes the deliveries of waiting events: while requests keep coming as many events as there are free slots (the
   * backlog waits as events, cheaply), otherwise up to FAN_OUT_BATCH.
   */
  async function fanOutEvents(free: number): Promise<void> {
    fanOutDue = false; // a commit while the statement runs sets it again
    const { more } = await fanOut(quietForMs() < QUIET_MS ? free : FAN_OUT_BATCH).catch((err) => ((fanOutDue = true), Promise.reject(err)));
    if (more) fanOutDue = true;
  }

  // A claim is one statement whatever its size: it is made when at least half the slots are free,
  // not after every finished attempt, so a busy worker claims several deliveries a statement.
  const refillAt = Math.max(1, Math.ceil(config.WEBHOOK_CONCURRENCY / 2));

  /** One round: waiting events become deliveries, due ones are claimed and sent. */
  async function round(): Promise<void> {
    const free = config.WEBHOOK_CONCURRENCY - inFlight.size;
    if (stopping || free < refillAt || !pacing.claimNow()) return;
    if (fanOutDue) await fanOutEvents(free);
    send(await claim(free, heldBy(inFlight)));
    if (outcomes >= VACUUM_AFTER_OUTCOMES && quietForMs() >= QUIET_MS) {
      outcomes = 0;
      await vacuum();
    }
  }

  async function look(): Promise<void> {
    if (looking) return void (again = true);
    looking = true;
    try {
      do {
        again = false;
        await round();
      } while (again);
    } catch (err) {
      logger.warn({ err }, "could not look for due webhook deliveries");
    } finally {
      looking = false;
    }
  }

  const wake = () => void look();
  const pacing = claimPacing(wake);
  const eventsWaiting = () => ((fanOutDue = true), wake());
  const poll = setInterval(eventsWaiting, config.WEBHOOK_POLL_MS).unref();
  const pruning = setInterval(() => void prune(), PRUNE_EVERY_MS).unref();
  const unsubscribe = onEventsRecorded(eventsWaiting);
  void prune();
  wake();

  return {
    wake,
    async stop(timeoutMs = 10_000) {
      stopping = true;
      clearInterval(poll);
      clearInterval(pruning);
      pacing.cancel();
      unsubscribe();
      const all = Promise.all([...inFlight.values()].map((f) => f.done)).then(() => Promise.all(recording));
      await Promise.race([all, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
      if (inFlight.size) await release([...inFlight.keys()]).catch(() => undefined);
      await agent.close().catch(() => undefined);
    },
  };
}
