// REST takes a list only as a JSON array. GraphQL's input coercion turns a single value into a list of one
// (`"events": "report.created"` would become ["report.created"]); REST refuses it: a value that is not an array where
// the route takes a list is a 400 naming the field. The list positions are those of the REST operation's own
// variable types (its input objects included), so every list a route passes to GraphQL is strict, whatever declares
// it; null and absent values are left to GraphQL's own rules (required, not null).
import { getNullableType, isInputObjectType, isListType, type DocumentNode, type GraphQLInputType, type GraphQLSchema } from "graphql";
import { badField, type ApiError } from "../schema/errors";
import type { InputPath } from "../schema/errors";
import { declaredVariables } from "../schema/input-errors";

/** Whether a value of this type may hold a list (a list itself, or an input object whose fields may). */
function mayHoldList(type: GraphQLInputType, seen = new Set<GraphQLInputType>()): boolean {
  const inner = getNullableType(type);
  if (isListType(inner)) return true;
  if (!isInputObjectType(inner) || seen.has(inner)) return false;
  seen.add(inner);
  return Object.values(inner.getFields()).some((field) => mayHoldList(field.type, seen));
}

/** The first value below `path` that is not an array where `type` is a list. */
function nonArray(type: GraphQLInputType, value: unknown, path: InputPath): ApiError | undefined {
  if (value === undefined || value === null) return undefined;
  const inner = getNullableType(type);
  if (isListType(inner)) {
    if (!Array.isArray(value)) return badField(path, "must be an array");
    if (!mayHoldList(inner.ofType)) return undefined;
    for (const [i, item] of value.entries()) {
      const found = nonArray(inner.ofType, item, [...path, i]);
      if (found) return found;
    }
    return undefined;
  }
  if (!isInputObjectType(inner) || typeof value !== "object" || Array.isArray(value)) return undefined;
  for (const [name, field] of Object.entries(inner.getFields())) {
    const found = mayHoldList(field.type) ? nonArray(field.type, (value as Record<string, unknown>)[name], [...path, name]) : undefined;
    if (found) return found;
  }
  return undefined;
}

/** The variables of a document's operation whose values may hold a list, worked out once per document. */
const listVariables = new WeakMap<DocumentNode, Array<[name: string, type: GraphQLInputType]>>();

function listVariablesOf(schema: GraphQLSchema, document: DocumentNode): Array<[string, GraphQLInputType]> {
  let found = listVariables.get(document);
  if (!found) {
    found = declaredVariables(schema, document)
      .filter(({ type }) => mayHoldList(type))
      .map(({ name, type }): [string, GraphQLInputType] => [name, type]);
    listVariables.set(document, found);
  }
  return found;
}

/** A 400 naming the first value of a REST operation's variables that is not an array where a list goes. */
export function nonArrayForList(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown>): ApiError | undefined {
  for (const [name, type] of listVariablesOf(schema, document)) {
    const found = nonArray(type, variables[name], [name]);
    if (found) return found;
  }
  return undefined;
}
