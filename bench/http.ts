// Small fetch helpers for the harness's own checks (not for load, which autocannon generates).
export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

export async function call(port: number, path: string, init: { method?: string; key: string; body?: unknown; headers?: Record<string, string> }) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: init.method ?? "GET",
    headers: { ...bearer(init.key), "content-type": "application/json", ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

/** Cycles through a list: each call returns the next item. */
export function cycle<T>(items: T[]): () => T {
  let i = 0;
  return () => items[i++ % items.length];
}
