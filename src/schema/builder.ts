// The Pothos builder: plugins and their options only. Types live in ./resources (one folder per resource) and
// ./types; scalars in ./scalars.ts.
import SchemaBuilder, { type ArgBuilder as PothosArgBuilder } from "@pothos/core";
import ComplexityPlugin from "@pothos/plugin-complexity";
import PrismaPlugin from "@pothos/plugin-prisma";
import ScopeAuthPlugin, { AuthScopeFailureType, type AuthFailure } from "@pothos/plugin-scope-auth";
import ValidationPlugin from "@pothos/plugin-validation";
import { getNamedType, isListType, isNonNullType, isObjectType, type GraphQLOutputType } from "graphql";
import { can, type Permission, type Permissions } from "../auth/permissions";
import type { Context } from "../context";
import { prisma } from "../db";
import type PrismaTypes from "../generated/pothos-types";
import { getDatamodel } from "../generated/pothos-types";
import { badField, badInput, permissionDenied, unauthenticated, type InputPath } from "./errors";

/**
 * The permission a scope failure names (of `permissions`, the first one the key lacks); a field's authScopes object
 * fails as an "any of" around the scope.
 */
function deniedPermission(failure: AuthFailure, granted: Permissions): string | undefined {
  if (failure.kind === AuthScopeFailureType.AuthScope && failure.scope === "permission") return String(failure.parameter);
  if (failure.kind === AuthScopeFailureType.AuthScope && failure.scope === "permissions") {
    return (failure.parameter as Permission[]).find((permission) => !can(granted, permission));
  }
  if (failure.kind === AuthScopeFailureType.AnyAuthScopes || failure.kind === AuthScopeFailureType.AllAuthScopes) {
    for (const inner of failure.failures) {
      const permission = deniedPermission(inner, granted);
      if (permission) return permission;
    }
  }
  return undefined;
}

const isList = (type: GraphQLOutputType): boolean => isListType(isNonNullType(type) ? type.ofType : type);

/** Largest page a nested collection returns when the query gives no limit (docs/api.md "Embedded collections and restricted keys"). */
export const NESTED_LIMIT = 100;

export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  /** permission: the key holds it; permissions: the key holds every one (a 403 names the first it lacks). */
  AuthScopes: { authenticated: boolean; permission: Permission; permissions: readonly Permission[] };
  Scalars: { DateTime: { Input: Date; Output: Date | string }; JSON: { Input: unknown; Output: unknown }; SafeInt: { Input: number; Output: number };
    /** A file part of a multipart request (src/schema/resources/photo/object.ts); input only. */
    File: { Input: { readonly size: number; readonly type: string; readonly name?: string; arrayBuffer(): Promise<ArrayBuffer> }; Output: never };
  };
  DefaultFieldNullability: false;
}>({
  plugins: [ScopeAuthPlugin, PrismaPlugin, ValidationPlugin, ComplexityPlugin],
  defaultFieldNullability: false,
  prisma: { client: () => prisma, dmmf: getDatamodel(), onUnusedQuery: null },
  scopeAuth: {
    authScopes: (ctx) => ({
      authenticated: ctx.viewer !== null,
      permission: (permission) => ctx.viewer !== null && can(ctx.viewer.permissions, permission),
      permissions: (list) => ctx.viewer !== null && list.every((permission) => can(ctx.viewer!.permissions, permission)),
    }),
    unauthorizedError: (_parent, ctx, _info, result) => {
      if (!ctx.viewer) return unauthenticated();
      const permission = deniedPermission(result.failure, ctx.viewer.permissions);
      return permissionDenied(permission ?? "unknown");
    },
  },
  validation: {
    validationError: ({ issues }) => {
      const issue = issues[0];
      if (!issue) return badInput("Invalid request");
      const path = (issue.path ?? []).map((p) => (typeof p === "object" ? p.key : p)) as InputPath;
      return badField(path, issue.message);
    },
  },
  // The estimated result size (docs/api.md "GraphQL limits"): every object a query can return counts 1, scalars 0; a
  // list of n objects (n = its limit argument, or NESTED_LIMIT) counts n and multiplies what is below it by n.
  complexity: {
    fieldComplexity: (args, _ctx, field) => {
      if (!isObjectType(getNamedType(field.type))) return { field: 0, multiplier: 1 };
      const n = isList(field.type) ? (typeof args.limit === "number" ? args.limit : NESTED_LIMIT) : 1;
      return { field: n, multiplier: n };
    },
  },
});

builder.queryType({ description: "Reads. Every field needs an API key; each names the permission it needs." });
builder.mutationType({ description: "Changes. Every field needs an API key; each names the permission it needs." });

export type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
export type InputFields = PothosSchemaTypes.InputFieldBuilder<Types, "InputObject">;
export type ArgBuilder = PothosArgBuilder<Types>;
