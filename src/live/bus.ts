// How processes tell each other that the outbox holds new events of a team, or that a key changed (docs/api.md
// "Live updates"). With REDIS_URL, a Redis pub/sub channel each (every process, the publisher included, hears every
// message); without, this process only (PGlite: one process owns the database). A message carries only a team or key
// id: what happened is read from the outbox (./streams.ts), so a lost or repeated message loses or repeats nothing.
import type { Redis } from "ioredis";
import { config } from "../config";
import { logger } from "../logger";
import { madeOnFirstUse, redisClient } from "../redis";

type Listener = (id: string) => void;

export interface LiveBus {
  /** After a commit that recorded events of these teams. */
  eventsCommitted(teamIds: Iterable<string>): void;
  /** After a commit that revoked or rolled this key. */
  keyChanged(keyId: string): void;
  onEvents(listener: Listener): void;
  onKey(listener: Listener): void;
  close(): Promise<void>;
}

function memoryBus(): LiveBus {
  const events = new Set<Listener>();
  const keys = new Set<Listener>();
  return {
    eventsCommitted: (teamIds) => {
      for (const teamId of teamIds) events.forEach((listener) => listener(teamId));
    },
    keyChanged: (keyId) => keys.forEach((listener) => listener(keyId)),
    onEvents: (listener) => void events.add(listener),
    onKey: (listener) => void keys.add(listener),
    close: async () => {
      events.clear();
      keys.clear();
    },
  };
}

function redisBus(url: string, prefix: string): LiveBus {
  const channels = { events: `${prefix}:live:events`, keys: `${prefix}:live:keys` };
  const listeners = { [channels.events]: new Set<Listener>(), [channels.keys]: new Set<Listener>() };
  const options = { enableAutoPipelining: true, maxRetriesPerRequest: 1 } as const;
  // Messages published while the connection opens wait for it (each retried once).
  const publisher = redisClient(url, options);
  publisher.on("error", (err) => logger.warn({ err: err.message }, "redis error; live updates reach other processes late meanwhile"));
  // Opened when this process first has a stream: a process nobody subscribes to only publishes.
  let subscriber: Redis | undefined;
  const subscribe = () => {
    if (subscriber) return;
    subscriber = redisClient(url, options);
    subscriber.on("error", (err) => logger.warn({ err: err.message }, "redis error (live updates' subscription)"));
    subscriber.on("message", (channel: string, id: string) => listeners[channel]?.forEach((listener) => listener(id)));
    void subscriber.subscribe(channels.events, channels.keys).catch((err) => logger.error({ err }, "could not subscribe to live updates"));
  };
  const publish = (channel: string, id: string) =>
    void publisher.publish(channel, id).catch((err) => logger.warn({ err: err.message, channel }, "could not publish a live update"));
  return {
    eventsCommitted: (teamIds) => {
      for (const teamId of teamIds) publish(channels.events, teamId);
    },
    keyChanged: (keyId) => publish(channels.keys, keyId),
    onEvents: (listener) => (subscribe(), void listeners[channels.events].add(listener)),
    onKey: (listener) => (subscribe(), void listeners[channels.keys].add(listener)),
    close: async () => {
      await Promise.allSettled([publisher.quit(), subscriber?.quit()]);
    },
  };
}

const bus = madeOnFirstUse<LiveBus>(() => (config.REDIS_URL ? redisBus(config.REDIS_URL, config.REDIS_KEY_PREFIX) : memoryBus()));

/** This process's bus (made on first use). */
export const liveBus = bus.get;

/** Closes the bus's connections (at shutdown; a later use opens a new one). */
export const closeLiveBus = bus.close;
