// A field's permission and the sentence of its description that names it, stated once:
// `...needs("reports:read", "One report of the team.")` gives the field `authScopes: { permission: "reports:read" }`
// and a description ending "Needs reports:read.". The REST routes' summaries and docs/api.md read the permission back
// from the built schema (./auth-scopes.ts), so the three cannot disagree.
import { listInWords, type Permission } from "../auth/permissions";

/**
 * The description and authScopes of a field that needs one permission (or every one of a list); `aside` follows the
 * permission in the sentence, as in "Needs reports:update (and reports:publish to change its status).".
 */
export function needs(permission: Permission | readonly Permission[], description: string, aside?: string) {
  const permissions: readonly Permission[] = typeof permission === "string" ? [permission] : permission;
  return {
    description: `${description} Needs ${listInWords(permissions)}${aside ? ` ${aside}` : ""}.`,
    authScopes: typeof permission === "string" ? { permission } : { permissions },
  };
}
