// The team's live events (docs/api.md "Live updates"): a teamEvents subscription over server-sent events, read with
// fetch (EventSource cannot send the key in a header). A page calls `onEvent` on each change to read its data again;
// a dropped stream is opened again after a pause, resuming after the last event seen. The components of a page share
// one stream.
import { useEffect, useRef } from "preact/hooks";
import { OWN_REQUEST } from "./graphql";

const DOCUMENT = "subscription DashboardLive { teamEvents { id type } }";

type Listener = (type: string) => void;

/** The open stream of each key, shared by every component that listens (one subscription per tab, not per card). */
const streams = new Map<string, { listeners: Set<Listener>; stop: AbortController }>();

/** Reads the team's events until `stop` aborts, calling each listener per event; reopens a dropped stream. */
async function stream(apiKey: string, listeners: Set<Listener>, stop: AbortController): Promise<void> {
  let last: string | null = null;
  let pause = 1000;
  while (!stop.signal.aborted) {
    try {
      const res = await fetch("/graphql", {
        method: "POST",
        signal: stop.signal,
        headers: { Authorization: `Bearer ${apiKey}`, Accept: "text/event-stream", "Content-Type": "application/json", ...OWN_REQUEST, ...(last ? { "Last-Event-ID": last } : {}) },
        body: JSON.stringify({ query: DOCUMENT }),
      });
      if (!res.ok || !res.body) throw new Error(`stream refused (${res.status})`);
      pause = 1000;
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const id = /^id: ?(.*)$/m.exec(frame)?.[1];
          const data = /^data: ?(.*)$/m.exec(frame)?.[1];
          if (id) last = id;
          if (data) {
            try {
              const type = (JSON.parse(data) as { data?: { teamEvents?: { type?: string } } }).data?.teamEvents?.type;
              if (type) for (const listener of [...listeners]) listener(type);
            } catch {
              /* not an event's JSON: a comment or a partial frame */
            }
          }
        }
      }
    } catch {
      if (stop.signal.aborted) return;
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * 2, 30_000);
  }
}

/**
 * Calls `onEvent(type)` for each of the team's changes while the component is mounted. Every listener of one key
 * shares one stream, opened with the first and closed with the last.
 */
export function useTeamEvents(apiKey: string, onEvent: Listener): void {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    const listener: Listener = (type) => handler.current(type);
    let shared = streams.get(apiKey);
    if (!shared) {
      shared = { listeners: new Set(), stop: new AbortController() };
      streams.set(apiKey, shared);
      void stream(apiKey, shared.listeners, shared.stop);
    }
    shared.listeners.add(listener);
    const mine = shared;
    return () => {
      mine.listeners.delete(listener);
      if (mine.listeners.size > 0) return;
      mine.stop.abort();
      streams.delete(apiKey);
    };
  }, [apiKey]);
}
