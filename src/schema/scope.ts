// Team scoping and permission checks that depend on input values (the static ones are authScopes on fields).
import { can, type Permission } from "../auth/permissions";
import type { Context, Viewer } from "../context";
import { permissionDenied, unauthenticated } from "./errors";

export function viewerOf(ctx: Context): Viewer {
  if (!ctx.viewer) throw unauthenticated();
  return ctx.viewer;
}

export const teamIdOf = (ctx: Context): string => viewerOf(ctx).teamId;

export function requirePermission(ctx: Context, permission: Permission): void {
  if (!can(viewerOf(ctx).permissions, permission)) throw permissionDenied(permission);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids are UUIDs; anything else cannot name a row, so it is "not found" rather than a database error. */
export const isUuid = (value: string): boolean => UUID.test(value);
