// /v1/graphql/documents (docs/api.md "Trusted documents"): register a code generator's manifest of
// GraphQL documents as the team's trusted documents, and list them. The GraphQL registerGraphQLDocuments and
// graphqlDocuments run underneath.
import { z } from "zod";
import { operation, runRoot } from "./graphql";
import { bodyObject, pageVariables } from "./input";
import type { RestRoute } from "./route";
import { listRoute } from "./route-kinds";
import { objectShape } from "./object-shapes";
import { GRAPHQL_DOCUMENT } from "./shapes";

const REGISTRATION = objectShape("GraphQLDocumentsRegistration");
const REGISTER = operation(`mutation RestRegisterGraphQLDocuments($manifest: JSON!) {
  registerGraphQLDocuments(manifest: $manifest) { ${REGISTRATION.selection} }
}`);
const LIST = operation(`query RestGraphQLDocuments($limit: Int!, $offset: Int!) {
  graphqlDocuments(limit: $limit, offset: $offset) { total limit offset items { ${GRAPHQL_DOCUMENT.selection} } }
}`);

const manifest = z
  .record(z.string().regex(/^(sha256:)?[0-9a-fA-F]{64}$/), z.string())
  .meta({
    id: "GraphQLDocumentManifest",
    description: 'What a GraphQL code generator writes: { "<SHA-256 of the text, hex>": "<document>" }; a key may also be the document id, "sha256:<hex>"',
  });
const registration = REGISTRATION.schema.meta({ id: "GraphQLDocumentsRegistration" });
const document = GRAPHQL_DOCUMENT.schema.meta({ id: "GraphQLDocument" });

export const graphqlDocumentRoutes: RestRoute[] = [
  {
    method: "post",
    path: "/v1/graphql/documents",
    operationId: "registerGraphQLDocuments",
    tag: "GraphQL",
    summary: (needs) => `Register trusted GraphQL documents from a code generator's manifest (needs ${needs})`,
    description:
      'Each document is checked against the schema and the GraphQL limits; a hash that does not match its text, or a refused document, fails the whole manifest (400 naming it). At most 500 documents a registration (more: 413) and 5,000 a team, counting those it holds (more: 400, nothing stored). Clients then send documentId "sha256:<hash>" to /graphql.',
    operations: [REGISTER],
    body: manifest,
    status: 201,
    answer: { body: z.object({ data: registration }) },
    responseDescription: "How many documents were new and how many the team already held",
    errors: [400, 403],
    run: async (req, res) => ({ data: await runRoot(REGISTER, { manifest: bodyObject(req) }, res.locals.context) }),
  },
  listRoute({
    path: "/v1/graphql/documents",
    operationId: "listGraphQLDocuments",
    tag: "GraphQL",
    summary: (needs) => `The team's registered GraphQL documents, oldest first (needs ${needs})`,
    operation: LIST,
    variables: pageVariables,
    item: document,
    responseDescription: "A page of documents",
    errors: [403],
  }),
];
