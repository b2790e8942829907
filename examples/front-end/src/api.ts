// The example's GraphQL client: every request names a registered document by its id (`documentId:
// "sha256:<hex>"`, the GraphQL-over-HTTP persisted-documents form) and never sends query text, so it works with a key
// limited to trusted documents. Queries go over GET (the browser revalidates their answers by ETag).
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";

/** The service's origin (VITE_PRS_API at build time; the page's own origin when unset) and the browser key. */
export const API = import.meta.env.VITE_PRS_API || location.origin;
const KEY: string = import.meta.env.VITE_PRS_KEY ?? "";

/** The documentId of a generated document: the code generator put it in the document's __meta__ ("sha256:<hex>"). */
export function documentIdOf(document: TypedDocumentNode<unknown, never>): string {
  const id = (document as { __meta__?: { hash?: string } }).__meta__?.hash;
  if (!id) throw new Error("not a persisted document: run npm run example:codegen");
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
