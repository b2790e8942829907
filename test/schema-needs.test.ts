// The "Needs …" of a GraphQL field's description is what its authScopes require: GraphiQL's docs and schema.graphql
// tell a client the permission a field checks, so the words may not drift from the check (docs/api.md "API keys,
// teams and permissions"). Most fields write both with src/schema/needs.ts; this holds the ones written by hand. A
// parenthesis after them names a permission the resolver checks on some inputs only.
import { isObjectType } from "graphql";
import { schema } from "../src/schema";
import { fieldPermissions } from "../src/schema/auth-scopes";

/** "comparables:create, update and delete" or "api_keys:create and api_keys:delete" → each permission in full. */
function named(words: string): string[] {
  let resource = "";
  return words.split(/,\s*|\s+and\s+/).map((word) => {
    const [first, action] = word.trim().split(":");
    if (action === undefined) return `${resource}:${first}`;
    resource = first;
    return word.trim();
  });
}

/** Every field whose description says "Needs …": what it says, and what its authScopes need. */
function statedNeeds() {
  const fields: Array<{ field: string; says: string[]; needs: string[] }> = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith("__")) continue;
    for (const field of Object.values(type.getFields())) {
      const words = /\bNeeds ([a-z_]+:[^.(]+?)\s*(?:\(|\.|$)/.exec(field.description ?? "")?.[1];
      const needs = fieldPermissions(field).sort();
      if (words !== undefined || needs.length) fields.push({ field: `${type.name}.${field.name}`, says: words === undefined ? [] : named(words).sort(), needs });
    }
  }
  return fields;
}

it("every description's Needs names the permissions of the field's authScopes", () => {
  const stated = statedNeeds().filter((f) => f.says.length);
  expect(stated.length).toBeGreaterThan(30);
  expect(stated.filter((f) => f.says.join() !== f.needs.join())).toEqual([]);
});

it("every root field with authScopes says what it needs", () => {
  const roots = new Set([schema.getQueryType()?.name, schema.getMutationType()?.name]);
  const silent = statedNeeds().filter((f) => roots.has(f.field.split(".")[0]) && f.needs.length && !f.says.length);
  expect(silent.map((f) => f.field)).toEqual([]);
});
