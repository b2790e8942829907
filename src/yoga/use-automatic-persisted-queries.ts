// Automatic persisted queries (docs/api.md "Automatic persisted queries"), a Yoga plugin: the hash a request's
// extensions.persistedQuery sends becomes the text it names (src/graphql-documents/apq.ts resolves it).
import type { Response } from "express";
import type { GraphQLParams, Plugin } from "graphql-yoga";
import type { Viewer } from "../context";
import { persistedQueryHash, refusal, resolvePersistedQuery } from "../graphql-documents/apq";

/** The request's viewer as the auth step left it (Yoga's server context is Express's req and res). */
const viewerOf = (context: unknown): Viewer | null | undefined => ((context as { res?: Response }).res?.locals.context as { viewer?: Viewer | null } | undefined)?.viewer;

/**
 * Yoga plugin (first of the document plugins): a request with `extensions.persistedQuery` runs the text it names.
 * A registered document runs as its `documentId` would (the trusted-document rules and plugin read it); any other
 * runs as the query text. The extension is taken off the parameters once resolved.
 */
export function useAutomaticPersistedQueries(): Plugin {
  return {
    async onParams({ params, setParams, context }) {
      const hash = persistedQueryHash(params.extensions);
      if (hash === null) return;
      if ((params as { documentId?: unknown }).documentId != null) throw refusal("Send either documentId or extensions.persistedQuery, not both", 400, "BAD_REQUEST");
      const viewer = viewerOf(context);
      if (!viewer) return;
      const { query, registered } = await resolvePersistedQuery(viewer, hash, params.query);
      const { persistedQuery: _sent, ...extensions } = params.extensions as Record<string, unknown>;
      const next: GraphQLParams & { documentId?: string } = registered
        ? { ...params, query: undefined, extensions, documentId: `sha256:${hash}` }
        : { ...params, query, extensions };
      setParams(next);
    },
  };
}
