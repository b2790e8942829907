// Variable values GraphQL refused before execution (a string where a number goes, a missing required field, an
// unknown enum value …), as "<field> <reason>" errors in the words of rules.ts. graphql-js reports these with the
// variable's name and its own type words; this finds the same problem again with its input path, so that REST
// answers `price must be a number` and GraphQL clients get the field in `extensions.field`.
import {
  coerceInputValue,
  getNamedType,
  GraphQLError,
  isEnumType,
  isInputObjectType,
  isInputType,
  isListType,
  isNonNullType,
  Kind,
  typeFromAST,
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type VariableDefinitionNode,
} from "graphql";
import { badField, type ApiError } from "./errors";
import { requiredMessageOf } from "./fields";

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;

/** Why `value` is not a valid `type`, in our words. */
function reasonFor(type: GraphQLInputType, value: unknown, error: GraphQLError): string {
  if (value === undefined) return "is required";
  if (value === null) return "must not be null";
  const named = getNamedType(type);
  if (isListType(isNonNullType(type) ? type.ofType : type)) return "must be a list";
  if (isEnumType(named)) return `must be one of: ${named.getValues().map((v) => v.name).join(", ")}`;
  if (isInputObjectType(named)) return "must be an object";
  switch (named.name) {
    case "Int":
      if (typeof value !== "number") return "must be a number";
      if (Number.isInteger(value)) return value > INT_MAX ? `must be at most ${INT_MAX}` : `must be at least ${INT_MIN}`;
      return "must be an integer";
    case "Float":
      return "must be a number";
    case "Boolean":
      return "must be a boolean";
    case "String":
    case "ID":
      return "must be a string";
    default:
      // Our own scalars throw the reason itself (scalars.ts).
      return error.message;
  }
}

/** Every variable a document's operations declare, with its input type in `schema` (one of no such type left out). */
export function declaredVariables(schema: GraphQLSchema, document: DocumentNode): Array<{ name: string; type: GraphQLInputType; definition: VariableDefinitionNode }> {
  const found: Array<{ name: string; type: GraphQLInputType; definition: VariableDefinitionNode }> = [];
  for (const operation of document.definitions) {
    if (operation.kind !== Kind.OPERATION_DEFINITION) continue;
    for (const definition of operation.variableDefinitions ?? []) {
      const type = typeFromAST(schema, definition.type);
      if (type && isInputType(type)) found.push({ name: definition.variable.name.value, type, definition });
    }
  }
  return found;
}

/**
 * The first refused variable value of an operation, as an ApiError naming its input path (e.g. ["input",
 * "price"]); undefined when every value is acceptable.
 */
export function variableError(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown>): ApiError | undefined {
  for (const { name, type, definition } of declaredVariables(schema, document)) {
    const value = variables[name];
    if (value === undefined && (definition.defaultValue || !isNonNullType(type))) continue;
    let found: ApiError | undefined;
    coerceInputValue(value, type, (path, invalid, error) => {
      if (found) return;
      const fieldPath = [name, ...path];
      // A missing or extra field is reported at the object; name the field itself.
      const missing = /^Field "(\w+)" of required type/.exec(error.message);
      if (missing) {
        const message = requiredMessageOf(getNamedType(typeAt(type, path)).name, missing[1]);
        return void (found = badField([...fieldPath, missing[1]], message ?? "is required"));
      }
      const unknown = /^Field "(\w+)" is not defined/.exec(error.message);
      if (unknown) return void (found = badField([...fieldPath, unknown[1]], "is not a known field"));
      found = badField(fieldPath, reasonFor(typeAt(type, path), invalid, error));
    });
    if (found) return found;
  }
  return undefined;
}

/** The input type at a path below `type`. */
function typeAt(type: GraphQLInputType, path: ReadonlyArray<string | number>): GraphQLInputType {
  let current: GraphQLInputType = type;
  for (const key of path) {
    const inner: GraphQLInputType = isNonNullType(current) ? current.ofType : current;
    if (typeof key === "number" && isListType(inner)) current = inner.ofType;
    else if (typeof key === "string" && isInputObjectType(inner)) current = inner.getFields()[key]?.type ?? current;
  }
  return current;
}
