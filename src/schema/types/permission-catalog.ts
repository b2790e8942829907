// The permissions a key can usefully hold, read from this schema itself: each action of a resource that some field
// checks — in its authScopes, or named in its description's "Needs …" (a permission the resolver checks on some
// inputs, e.g. reports:publish on a change of status). The permission model grants every resource the same actions
// (src/auth/permissions.ts), but only reports publish: the dashboard offers what this list holds and nothing else.
import { isObjectType, type GraphQLSchema } from "graphql";
import { actionsOf, RESOURCES, type Action, type Resource } from "../../auth/permissions";
import { fieldPermissions } from "../auth-scopes";
import { builder } from "../builder";

interface CatalogEntry {
  resource: Resource;
  actions: { action: Action; fields: string[] }[];
}

const catalogs = new WeakMap<GraphQLSchema, CatalogEntry[]>();

/** Each resource's checked actions (in the model's order), with the root fields that check each. Built once a schema. */
export function permissionCatalog(schema: GraphQLSchema): CatalogEntry[] {
  const known = catalogs.get(schema);
  if (known) return known;
  const valid = new Set(RESOURCES.flatMap((r) => actionsOf(r).map((a) => `${r}:${a}`)));
  const users = new Map<string, Set<string>>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith("__")) continue;
    for (const field of Object.values(type.getFields())) {
      const named = [...(field.description ?? "").matchAll(/\b([a-z_]+:[a-z]+)\b/g)].map((m) => m[1]).filter((p) => valid.has(p));
      for (const permission of new Set([...fieldPermissions(field), ...named])) {
        if (!users.has(permission)) users.set(permission, new Set());
        users.get(permission)!.add(`${type.name}.${field.name}`);
      }
    }
  }
  const catalog = RESOURCES.map((resource: Resource) => ({
    resource,
    actions: actionsOf(resource)
      .filter((action) => users.has(`${resource}:${action}`))
      .map((action) => ({ action, fields: [...users.get(`${resource}:${action}`)!].sort() })),
  })).filter((entry) => entry.actions.length > 0);
  catalogs.set(schema, catalog);
  return catalog;
}

// Enums, not strings: each value is one of a few short names (and the size estimate prices it so).
const ResourceName = builder.enumType("PermissionResourceName", {
  description: "A resource of the permission model",
  values: Object.fromEntries(RESOURCES.map((r) => [r, { value: r }])),
});
const ALL_ACTIONS: Action[] = [...new Set(RESOURCES.flatMap((r) => actionsOf(r)))];
const ActionName = builder.enumType("PermissionActionName", {
  description: "An action of the permission model",
  values: Object.fromEntries(ALL_ACTIONS.map((a) => [a, { value: a }])),
});
/** The most actions a resource has (the size of an actions list). */
const MOST_ACTIONS = Math.max(...RESOURCES.map((r) => actionsOf(r).length));

const ActionRef = builder.objectRef<CatalogEntry["actions"][number]>("PermissionAction").implement({
  description: "An action of a resource that some field of the API checks.",
  fields: (t) => ({
    action: t.field({ type: ActionName, description: "The action, e.g. publish (a key holds it as resource:action)", resolve: (a) => a.action }),
    fields: t.exposeStringList("fields", { description: "The GraphQL fields that check it (Type.field)" }),
  }),
});

const ResourceRef = builder.objectRef<CatalogEntry>("PermissionResource").implement({
  description: "A resource and the actions on it that the API checks.",
  fields: (t) => ({
    resource: t.field({ type: ResourceName, description: "The resource, e.g. reports", resolve: (entry) => entry.resource }),
    actions: t.field({
      type: [ActionRef],
      description: "Its checked actions, in the permission model's order",
      complexity: { field: MOST_ACTIONS, multiplier: MOST_ACTIONS },
      resolve: (entry) => entry.actions,
    }),
  }),
});

builder.queryField("permissionCatalog", (t) =>
  t.field({
    type: [ResourceRef],
    description:
      "The permissions a key can usefully hold: each resource's actions that some field of this schema checks (a permission no field checks grants nothing: only reports publish). Needs an API key, with any permissions.",
    authScopes: { authenticated: true },
    complexity: { field: RESOURCES.length, multiplier: RESOURCES.length },
    resolve: (_root, _args, _ctx, info) => permissionCatalog(info.schema),
  }),
);
