// The Pothos builder: plugins and their options only. Types live in ./types, one file per domain type.
import SchemaBuilder, { type ArgBuilder as PothosArgBuilder } from "@pothos/core";
import PrismaPlugin from "@pothos/plugin-prisma";
import ScopeAuthPlugin, { AuthScopeFailureType, type AuthFailure } from "@pothos/plugin-scope-auth";
import ValidationPlugin from "@pothos/plugin-validation";
import { can, type Permission } from "../auth/permissions";
import type { Context } from "../context";
import { prisma } from "../db";
import type PrismaTypes from "../generated/pothos-types";
import { getDatamodel } from "../generated/pothos-types";
import { badInput, permissionDenied, unauthenticated } from "./errors";
import { formatIssues } from "./validation";

/** The permission a scope failure names; a field's authScopes object fails as an "any of" around the scope. */
function deniedPermission(failure: AuthFailure): string | undefined {
  if (failure.kind === AuthScopeFailureType.AuthScope && failure.scope === "permission") return String(failure.parameter);
  if (failure.kind === AuthScopeFailureType.AnyAuthScopes || failure.kind === AuthScopeFailureType.AllAuthScopes) {
    for (const inner of failure.failures) {
      const permission = deniedPermission(inner);
      if (permission) return permission;
    }
  }
  return undefined;
}

export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  AuthScopes: { authenticated: boolean; permission: Permission };
  Scalars: { DateTime: { Input: Date; Output: Date | string }; JSON: { Input: unknown; Output: unknown } };
  DefaultFieldNullability: false;
}>({
  plugins: [ScopeAuthPlugin, PrismaPlugin, ValidationPlugin],
  defaultFieldNullability: false,
  prisma: { client: prisma, dmmf: getDatamodel(), onUnusedQuery: null },
  scopeAuth: {
    authScopes: (ctx) => ({
      authenticated: ctx.viewer !== null,
      permission: (permission) => ctx.viewer !== null && can(ctx.viewer.permissions, permission),
    }),
    unauthorizedError: (_parent, ctx, _info, result) => {
      if (!ctx.viewer) return unauthenticated();
      const permission = deniedPermission(result.failure);
      return permissionDenied(permission ?? "unknown");
    },
  },
  validation: { validationError: (result) => badInput(formatIssues(result.issues)) },
});

builder.queryType({});
builder.mutationType({});

builder.scalarType("DateTime", {
  description: "An ISO 8601 date-time, e.g. 2026-05-01T14:00:00Z",
  serialize: (value) => (value instanceof Date ? value.toISOString() : String(value)),
  parseValue: (value) => {
    const date = typeof value === "string" ? new Date(value) : null;
    if (!date || Number.isNaN(date.getTime())) throw badInput("must be an ISO 8601 date-time");
    return date;
  },
});

builder.scalarType("JSON", {
  description: "Any JSON value",
  serialize: (value) => value,
  parseValue: (value) => value,
});

export type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
export type InputFields = PothosSchemaTypes.InputFieldBuilder<Types, "InputObject">;
export type ArgBuilder = PothosArgBuilder<Types>;
