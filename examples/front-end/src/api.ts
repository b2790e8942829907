// The example's GraphQL client: every request names a registered document by its id (`documentId:
// "sha256:<hex>"`, the GraphQL-over-HTTP persisted-documents form) and never sends query text, so it works with a key
// limited to trusted documents. Queries go over GET (the browser revalidates their answers by ETag); subscriptions
// are server-sent events at /graphql, through graphql-sse's client.
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { createClient, type RequestParams } from "graphql-sse";

/** The service's origin (VITE_PRS_API at build time; the page's own origin when unset) and the browser key. */
export const API = import.meta.env.VITE_PRS_API || location.origin;
const KEY: string = import.meta.env.VITE_PRS_KEY ?? "";

/** The documentId of a generated document: the code generator put it in the document's __meta__ ("sha256:<hex>"). */
export function documentIdOf(document: TypedDocumentNode<unknown, never>): string {
  const id = (document as { __meta__?: { hash?: string } }).__meta__?.hash;
  if (!id) throw new Error("not a persisted document: run npm run codegen in examples/front-end");
  return id;
}

export const authorization = { Authorization: `Bearer ${KEY}` };

interface GraphQLAnswer<T> {
  data?: T | null;
  errors?: { message: string }[];
}

/** Runs a registered query by its id; throws the first error's message. */
export async function query<T, V extends Record<string, unknown>>(document: TypedDocumentNode<T, V>, variables: V): Promise<T> {
  const url = new URL("/graphql", API);
  url.searchParams.set("documentId", documentIdOf(document as TypedDocumentNode<unknown, never>));
  url.searchParams.set("variables", JSON.stringify(variables));
  const res = await fetch(url, { headers: { ...authorization, Accept: "application/graphql-response+json" } });
  const answer = (await res.json()) as GraphQLAnswer<T>;
  if (answer.errors?.length) throw new Error(answer.errors[0].message);
  if (!answer.data) throw new Error(`The service answered ${res.status} without data`);
  return answer.data;
}

export interface Subscriber<T> {
  /** The stream is open: the first time, and again after it reconnected (events in between were not seen). */
  connected(): void;
  next(data: T): void;
  /** The server ended the stream (a report's stream ends after its report.deleted). */
  ended(): void;
  /** The stream was refused (an unknown report, a permission) or could not be kept open. */
  error(message: string): void;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Subscribes to a registered subscription by its id; answers the function that ends the stream. */
export function subscribe<T, V extends Record<string, unknown>>(document: TypedDocumentNode<T, V>, variables: V, on: Subscriber<T>): () => void {
  let refusal: string | undefined;
  const client = createClient({
    url: new URL("/graphql", API).href,
    headers: authorization,
    // graphql-sse retries every answer that is not a stream. A refusal (4xx other than 429, with the service's JSON
    // error) will not change: it ends the subscription at once. Dropped connections, 429 and 5xx are retried.
    fetchFn: async (input: RequestInfo | URL, init?: RequestInit) => {
      const res = await fetch(input, init);
      if (res.status >= 400 && res.status < 500 && res.status !== 429) {
        const body = (await res.json().catch(() => ({}))) as { errors?: { message: string }[] };
        refusal = body.errors?.[0]?.message ?? `The live stream was refused (${res.status})`;
      }
      return res;
    },
    retry: async (retries) => {
      if (refusal) throw new Error(refusal);
      await wait(Math.min(1000 * 2 ** retries, 16_000) + Math.random() * 1000);
    },
    retryAttempts: 20,
  });
  // graphql-sse sends the request object as the POST body: documentId in place of query.
  const request = { documentId: documentIdOf(document as TypedDocumentNode<unknown, never>), variables } as unknown as RequestParams;
  const end = client.subscribe<T>(
    request,
    {
      next: (result) => (result.errors?.length ? on.error(result.errors[0].message) : result.data && on.next(result.data)),
      error: (err) => on.error(err instanceof Error ? err.message : "The live stream failed"),
      complete: () => on.ended(),
    },
    { connected: () => on.connected() },
  );
  return () => {
    end();
    client.dispose();
  };
}
