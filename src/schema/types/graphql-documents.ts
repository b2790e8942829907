// Trusted documents (docs/api.md "Trusted documents"): the team's registered GraphQL documents,
// registered from a code generator's manifest and listed. REST's /v1/graphql/documents and `prs documents` run these.
import { recordAudit } from "../../audit/log";
import { prisma } from "../../db";
import { withEvents } from "../../webhooks/outbox";
import { checkManifest, DocumentLimitReached, MAX_DOCUMENTS_PER_REQUEST, MAX_DOCUMENTS_PER_TEAM, storeDocuments } from "../../graphql-documents/documents";
import { builder } from "../builder";
import { ApiError, badInput } from "../errors";
import { documentRefusal } from "../limits";
import { pageArgs } from "../page";
import { teamIdOf } from "../scope";
import { needs } from "../needs";
import { valueObject } from "../value-object";

interface DocumentRow {
  hash: string;
  text: string;
  createdAt: Date;
}

const GraphQLDocumentRef = valueObject<DocumentRow>("GraphQLDocument", "A registered (trusted) GraphQL document: clients run it by documentId.", {
  id: (t) => t.string({ description: 'The id clients send: "sha256:<hash>"', resolve: (d) => `sha256:${d.hash}` }),
  hash: ["String", "The SHA-256 of the document's text, in hex"],
  document: (t) => t.exposeString("text", { description: "The document's text" }),
  createdAt: ["DateTime", "When it was registered"],
});

interface DocumentPage {
  teamId: string;
  limit: number;
  offset: number;
}

const GraphQLDocumentPageRef = valueObject<DocumentPage>("GraphQLDocumentPage", "A page of the team's registered documents, oldest first.", {
  items: (t) =>
    t.field({
      type: [GraphQLDocumentRef],
      description: "The documents of this page",
      complexity: { field: 0, multiplier: 1 },
      resolve: ({ teamId, limit, offset }) =>
        prisma.graphqlDocument.findMany({ where: { teamId }, orderBy: [{ createdAt: "asc" }, { hash: "asc" }], take: limit, skip: offset }),
    }),
  total: (t) => t.int({ description: "Documents the team registered", resolve: ({ teamId }) => prisma.graphqlDocument.count({ where: { teamId } }) }),
  limit: ["Int", "Page size"],
  offset: ["Int", "Items skipped"],
});

const RegistrationRef = valueObject<{ registered: number; unchanged: number }>("GraphQLDocumentsRegistration", "What a registration did.", {
  registered: ["Int", "Documents the team did not hold before"],
  unchanged: ["Int", "Documents the team already held"],
});

builder.queryField("graphqlDocuments", (t) =>
  t.field({
    type: GraphQLDocumentPageRef,
    ...needs("api_keys:read", "The team's registered GraphQL documents, oldest first."),
    args: pageArgs(t),
    complexity: (args) => ({ field: 1 + args.limit, multiplier: args.limit }),
    resolve: (_root, { limit, offset }, ctx) => ({ teamId: teamIdOf(ctx), limit, offset }),
  }),
);

builder.mutationField("registerGraphQLDocuments", (t) =>
  t.field({
    type: RegistrationRef,
    ...needs("api_keys:create", `Registers a manifest { "<sha256 hex of the text>": "<document>" } (what a GraphQL code generator writes; a key may also be the document id, "sha256:<hex>") as the team's trusted documents. Each document is checked against the schema and the query limits first; a hash that does not match its text, or a refused document, fails the whole manifest (400 naming it). At most ${MAX_DOCUMENTS_PER_REQUEST} documents a registration (more: 413) and ${MAX_DOCUMENTS_PER_TEAM} a team, counting those it holds (more: 400, nothing stored).`),
    args: { manifest: t.arg({ type: "JSON", required: true, description: "The manifest: document hash → document text" }) },
    resolve: async (_root, { manifest }, ctx, info) => {
      const teamId = teamIdOf(ctx);
      const entries = await checkManifest((text) => documentRefusal(info.schema, text), manifest);
      if (!Array.isArray(entries)) throw new ApiError(() => entries.message, entries.status, entries.status === 413 ? "PAYLOAD_TOO_LARGE" : "BAD_USER_INPUT");
      try {
        return await withEvents(async (tx) => {
          const counts = await storeDocuments(tx, teamId, entries);
          if (counts.registered) {
            await recordAudit(tx, ctx, { teamId, action: "graphql_documents.registered", target: { type: "graphql_documents", id: teamId }, after: counts });
          }
          return counts;
        });
      } catch (err) {
        throw err instanceof DocumentLimitReached ? badInput(err.message) : err;
      }
    },
  }),
);
