// Per-key permissions: resource → allowed actions (docs/api.md "API keys, teams and permissions").
export const RESOURCES = ["reports", "comparables", "showings", "social_media", "ai_insights", "team", "webhooks", "api_keys", "audit_log", "attendees"] as const;
/** The actions of every resource. */
export const ACTIONS = ["read", "create", "update", "delete", "publish"] as const;
/** Actions only some resources have: reports:share makes share links (docs/api.md "Sharing, records and operations"). */
const EXTRA_ACTIONS = { reports: ["share"] } as const satisfies Partial<Record<Resource, readonly string[]>>;

export type Resource = (typeof RESOURCES)[number];
export type Action = (typeof ACTIONS)[number] | (typeof EXTRA_ACTIONS)[keyof typeof EXTRA_ACTIONS][number];
export type Permission = `${Resource}:${Action}`;
export type Permissions = Partial<Record<Resource, Action[]>>;

/** Every action of `resource`, in a fixed order (what `resource:*` grants). */
export const actionsOf = (resource: Resource): Action[] =>
  ONLY_ACTIONS[resource] ? [...ONLY_ACTIONS[resource]] : [...ACTIONS, ...((EXTRA_ACTIONS as Partial<Record<Resource, readonly Action[]>>)[resource] ?? [])];
/**
 * Resources with fewer actions than the others: the audit log is only ever read (docs/api.md "Sharing, records and
 * operations"); attendees' contact data is read or erased (docs/api.md "Open-house sign-in").
 */
const ONLY_ACTIONS: Partial<Record<Resource, readonly Action[]>> = { audit_log: ["read"], attendees: ["read", "delete"] };

const grantAll = (resources: readonly Resource[]): Permissions =>
  Object.fromEntries(resources.map((r) => [r, actionsOf(r)]));

/** What a key created without an explicit list gets: everything of the team except key management. */
export const TEAM_FULL_ACCESS: Permissions = grantAll(RESOURCES.filter((r) => r !== "api_keys"));
/** The first-start key: every permission, including key management. */
export const ALL_PERMISSIONS: Permissions = grantAll(RESOURCES);

export function can(permissions: Permissions, permission: Permission): boolean {
  const [resource, action] = permission.split(":") as [Resource, Action];
  return permissions[resource]?.includes(action) ?? false;
}

export const listPermissions = (permissions: Permissions): Permission[] =>
  Object.entries(permissions).flatMap(([resource, actions]) => (actions ?? []).map((a) => `${resource}:${a}` as Permission));

/**
 * Parses `reports:read,showings:*` into a permission map. `resource:*` grants every action.
 * Throws with a message naming the first unknown entry.
 */
export function parsePermissions(list: string[] | string): Permissions {
  const entries = (Array.isArray(list) ? list : list.split(",")).map((s) => s.trim()).filter(Boolean);
  const result: Permissions = {};
  for (const entry of entries) {
    const [resource, action, extra] = entry.split(":");
    if (!RESOURCES.includes(resource as Resource) || extra !== undefined) {
      throw new Error(`Unknown permission '${entry}': resources are ${RESOURCES.join(", ")}`);
    }
    const allowed = actionsOf(resource as Resource);
    if (action !== "*" && !allowed.includes(action as Action)) {
      throw new Error(`Unknown permission '${entry}': actions are ${allowed.join(", ")} or *`);
    }
    const actions = new Set(result[resource as Resource] ?? []);
    for (const a of action === "*" ? allowed : [action as Action]) actions.add(a);
    result[resource as Resource] = allowed.filter((a) => actions.has(a));
  }
  return result;
}

/** The first permission in `requested` that `held` lacks, or null when `requested` is within `held`. */
export function firstMissing(requested: Permissions, held: Permissions): Permission | null {
  return listPermissions(requested).find((p) => !can(held, p)) ?? null;
}

/** A list in words: "a", "a and b", "a, b and c" (the permissions a field or route needs). */
export const listInWords = (items: readonly string[]): string =>
  items.length > 1 ? `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}` : (items[0] ?? "");
