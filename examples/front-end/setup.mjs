#!/usr/bin/env node
// Makes a team ready for the example: registers its documents (src/gql/persisted-documents.json, written by
// npm run codegen in this folder) as the team's trusted documents and creates a key limited to them, which is printed alone
// on standard output. Through the API, so it works while the service runs on either database.
//   PRS_ADMIN_KEY=<a key holding api_keys:create> node examples/front-end/setup.mjs [service origin, default http://localhost:3000]
import { readFileSync } from "node:fs";

const api = process.argv[2] ?? "http://localhost:3000";
const admin = process.env.PRS_ADMIN_KEY;
if (!admin) {
  console.error("usage: PRS_ADMIN_KEY=<a key holding api_keys:create> node examples/front-end/setup.mjs [service origin]");
  process.exit(2);
}
const headers = { Authorization: `Bearer ${admin}`, "Content-Type": "application/json" };
const fail = (what, res, body) => {
  console.error(`${what}: ${res.status} ${body.error?.message ?? body.errors?.[0]?.message ?? JSON.stringify(body)}`);
  process.exit(1);
};

const manifest = readFileSync(new URL("./src/gql/persisted-documents.json", import.meta.url), "utf8");
const registered = await fetch(`${api}/v1/graphql/documents`, { method: "POST", headers, body: manifest });
const documents = await registered.json();
if (registered.status !== 201) fail("registering the documents", registered, documents);
console.error(`documents: ${documents.data.registered} registered, ${documents.data.unchanged} registered before`);

// What the app reads, and nothing but its registered documents.
const input = { name: "example front-end", permissions: ["reports:read", "showings:read", "comparables:read"], trustedDocumentsOnly: true };
const created = await fetch(`${api}/graphql`, {
  method: "POST",
  headers,
  body: JSON.stringify({ query: "mutation ExampleKey($input: CreateApiKeyInput!) { createApiKey(input: $input) { key } }", variables: { input } }),
});
const answer = await created.json();
if (!answer.data?.createApiKey) fail("creating the key", created, answer);
console.error("key (limited to the registered documents; safe to build into the app):");
console.log(answer.data.createApiKey.key);
