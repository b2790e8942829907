// A client of the service's live streams (GraphQL subscriptions over server-sent events) for tests and the bench: a
// plain fetch reading the response body and parsing its events (`id:`, `event:`, `data:`; `:` comments are the
// keep-alive).
export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

export interface LiveStream {
  status: number;
  headers: Headers;
  /** The body of an answer that is not a stream (a refusal), parsed. */
  body?: any;
  /** The next `next` event's data, parsed; rejects when the stream ends first (or after `timeoutMs`). */
  next(timeoutMs?: number): Promise<any>;
  /** Every event received so far, `complete` included. */
  events: SseEvent[];
  /** Resolves when the server ended the stream. */
  ended: Promise<void>;
  /** Ends the stream from the client's side. */
  close(): void;
}

export interface StreamRequest {
  query: string;
  variables?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** GET with the document in the URL (as EventSource does) instead of POST. */
  get?: boolean;
}

export async function openLiveStream(base: string, { query, variables, headers = {}, get }: StreamRequest): Promise<LiveStream> {
  const abort = new AbortController();
  const url = get ? `${base}/graphql?${new URLSearchParams({ query, ...(variables ? { variables: JSON.stringify(variables) } : {}) })}` : `${base}/graphql`;
  const res = await fetch(url, {
    method: get ? "GET" : "POST",
    headers: { Accept: "text/event-stream", ...(get ? {} : { "Content-Type": "application/json" }), ...headers },
    body: get ? undefined : JSON.stringify({ query, variables }),
    signal: abort.signal,
  });
  const events: SseEvent[] = [];
  const waiting: Array<{ resolve: (e: SseEvent | null) => void }> = [];
  const pending: SseEvent[] = [];
  let done = false;
  const push = (event: SseEvent | null) => {
    if (event) events.push(event);
    if (event?.event !== "next") {
      done = true;
      waiting.splice(0).forEach((w) => w.resolve(null));
      return;
    }
    const waiter = waiting.shift();
    if (waiter) waiter.resolve(event);
    else pending.push(event);
  };
  if (!(res.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON: kept as text */
    }
    return { status: res.status, headers: res.headers, body, events, next: () => Promise.reject(new Error("not a stream")), ended: Promise.resolve(), close: () => undefined };
  }
  const ended = (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: SseEvent = { event: "message", data: "" };
          let any = false;
          for (const line of block.split("\n")) {
            if (!line || line.startsWith(":")) continue;
            const colon = line.indexOf(":");
            const field = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
            any = true;
            if (field === "id") event.id = value;
            else if (field === "event") event.event = value;
            else if (field === "data") event.data = event.data ? `${event.data}\n${value}` : value;
          }
          if (any) push(event);
        }
      }
    } catch {
      /* aborted by close() */
    }
    if (!done) push(null);
  })();
  return {
    status: res.status,
    headers: res.headers,
    events,
    ended,
    close: () => abort.abort(),
    next: (timeoutMs = 20_000) => {
      const ready = pending.shift();
      if (ready) return Promise.resolve(JSON.parse(ready.data));
      if (done) return Promise.reject(new Error(`the stream ended: ${JSON.stringify(events.at(-1) ?? null)}`));
      return new Promise((resolve, reject) => {
        const waiter = {
          resolve: (event: SseEvent | null) => {
            clearTimeout(timer);
            if (event) resolve(JSON.parse(event.data));
            else reject(new Error(`the stream ended: ${JSON.stringify(events.at(-1) ?? null)}`));
          },
        };
        // A waiter that gave up leaves the queue: the next event goes to the next call, not to nobody.
        const timer = setTimeout(() => {
          waiting.splice(waiting.indexOf(waiter), 1);
          reject(new Error(`no event within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.push(waiter);
      });
    },
  };
}
