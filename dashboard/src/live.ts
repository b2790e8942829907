// The team's live events (docs/api.md "Live updates"): a teamEvents subscription over server-sent events, read with
// fetch (EventSource cannot send the key in a header). A page calls `onEvent` on each change to read its data again;
// a dropped stream is opened again after a pause, resuming after the last event seen.
import { useEffect, useRef } from "preact/hooks";
import { OWN_REQUEST } from "./graphql";

const DOCUMENT = "subscription DashboardLive { teamEvents { id type } }";

/** Calls `onEvent(type)` for each of the team's changes while the component is mounted. */
export function useTeamEvents(apiKey: string, onEvent: (type: string) => void): void {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    const stop = new AbortController();
    let last: string | null = null;
    let pause = 1000;
    const open = async () => {
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
                  if (type) handler.current(type);
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
    };
    void open();
    return () => stop.abort();
  }, [apiKey]);
}
