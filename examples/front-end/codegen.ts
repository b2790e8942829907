// GraphQL Code Generator (client preset) for the example: reads the documents in src/*.graphql, types them from the
// service's committed schema.graphql, and writes src/gql/ — graphql.ts, the typed documents, which carry only their
// id (the app sends `documentId`, never query text), and persisted-documents.json, the manifest
// `{ "sha256:<hex>": "<document>" }` the team registers as trusted documents (POST /v1/graphql/documents or
// `prs documents register`). Run from this folder (its own package.json: `npm ci` once): npm run codegen.
// The documents live in .graphql files, not in graphql(`…`) calls in the components: the client preset's graphql()
// looks documents up by their text, which would put every query's text into the bundle.
// test/system/example-front-end.test.ts fails when the committed src/gql/ is not what this writes.
import path from "node:path";
import type { CodegenConfig } from "@graphql-codegen/cli";

const here = path.relative(process.cwd(), import.meta.dirname) || ".";
const at = (p: string) => path.join(here, p).split(path.sep).join("/");

const config: CodegenConfig = {
  schema: at("../../schema.graphql"),
  documents: [at("src/**/*.graphql")],
  ignoreNoDocuments: false,
  generates: {
    [at("src/gql/")]: {
      preset: "client",
      presetConfig: {
        fragmentMasking: false,
        // "sha256:" + the SHA-256 of the text in hex: the service's document ids (docs/api.md "Sharing, records and operations").
        persistedDocuments: { hashAlgorithm: "sha256", mode: "replaceDocumentWithHash" },
      },
      config: {
        scalars: { DateTime: "string", JSON: "unknown", SafeInt: "number" },
        enumsAsTypes: true,
        useTypeImports: true,
      },
    },
  },
};

export default config;
