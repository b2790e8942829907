// Running trusted documents (docs/api.md "Trusted documents") through graphql-yoga's
// persisted-operations plugin: a request may send `documentId: "sha256:<hex>"` (a GET parameter or a POST body field,
// the GraphQL-over-HTTP persisted-documents form) with `variables` and `operationName` instead of `query`; the text is
// the team's registered document (src/graphql-documents/documents.ts). A key created with trustedDocumentsOnly runs nothing else.
// The query limits still estimate every request, a registered document's too: the estimate depends on the variables
// (a list's `limit`), and registration could only check it for the variables' defaults.
import { usePersistedOperations } from "@graphql-yoga/plugin-persisted-operations";
import type { Response } from "express";
import { GraphQLError } from "graphql";
import type { GraphQLParams, Plugin } from "graphql-yoga";
import type { Context } from "../context";
import { findDocument, hashOfDocumentId, TRUSTED_ONLY_MESSAGE } from "../graphql-documents/documents";

const httpError = (message: string, status: number, code: string) =>
  new GraphQLError(message, { extensions: { code, status, http: { status } } });

/** The request's context as the auth step left it (Yoga's server context is Express's req and res). */
const contextOf = (serverContext: unknown): Context | undefined => (serverContext as { res?: Response }).res?.locals.context as Context | undefined;

/** The `documentId` a request sent: the POST body's field, or the GET parameter (Yoga's GET parser drops it). */
export function documentIdOf(params: GraphQLParams, request: Request): unknown {
  const fromBody = (params as { documentId?: unknown }).documentId ?? undefined; // null: not sent
  if (fromBody !== undefined || request.method !== "GET") return fromBody;
  return new URL(request.url, "http://localhost").searchParams.get("documentId") ?? undefined;
}

/** Refuses a request that sends both forms, a malformed id, and any document text from a key limited to registered ones. */
function useDocumentIdRules(): Plugin {
  return {
    onParams({ params, request, context }) {
      const documentId = documentIdOf(params, request);
      if (documentId !== undefined && params.query !== undefined) throw httpError("Send either query or documentId, not both", 400, "BAD_REQUEST");
      if (documentId !== undefined && !hashOfDocumentId(documentId)) {
        throw httpError('documentId must be "sha256:" followed by the 64 hex digits of the document\'s SHA-256', 400, "BAD_REQUEST");
      }
      if (documentId === undefined && contextOf(context)?.viewer?.trustedDocumentsOnly) throw httpError(TRUSTED_ONLY_MESSAGE, 403, "FORBIDDEN");
    },
  };
}

/** The Yoga plugins: the rules above, then the persisted-operations plugin reading the team's documents. */
export function useTrustedDocuments(): Plugin[] {
  return [
    useDocumentIdRules(),
    usePersistedOperations({
      allowArbitraryOperations: true, // per key: useDocumentIdRules refuses text from a trustedDocumentsOnly key
      extractPersistedOperationId: (params, request) => hashOfDocumentId(documentIdOf(params, request)) ?? null,
      getPersistedOperation: (hash, _request, context) => {
        const teamId = contextOf(context)?.viewer?.teamId;
        return teamId ? findDocument(teamId, hash).then((text) => text ?? null) : null;
      },
      customErrors: {
        notFound: ({ params, request }) =>
          httpError(
            `PersistedQueryNotFound: documentId ${String(documentIdOf(params, request))} is not registered for this team (POST /v1/graphql/documents)`,
            400,
            "PERSISTED_QUERY_NOT_FOUND",
          ),
        keyNotFound: () => httpError("Must provide query string or documentId.", 400, "BAD_REQUEST"),
      },
    }) as Plugin,
  ];
}
