// The permissions a field's static authScopes name, read back from the built schema (Pothos keeps a field's options
// in extensions.pothosOptions): the REST summaries and the "Needs …" of descriptions are checked against them.
import type { GraphQLField } from "graphql";

/** The permissions of `authScopes: { permission }` or `{ permissions: [...] }` (all of them needed); else none. */
export function fieldPermissions(field: GraphQLField<unknown, unknown> | undefined): string[] {
  const scopes = (field?.extensions?.pothosOptions as { authScopes?: unknown } | undefined)?.authScopes;
  if (typeof scopes !== "object" || scopes === null) return [];
  const { permission, permissions } = scopes as { permission?: string; permissions?: readonly string[] };
  return permission ? [permission] : [...(permissions ?? [])];
}
