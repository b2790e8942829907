// Permissions as a person reads them: only those the API checks (the schema's permissionCatalog: reports publish,
// showings do not), grouped by resource and short ("Everything", "Reports: read, create"), the full list on demand.
import { graphql, type ResultOf } from "./graphql";

export const CATALOG = graphql(`
  query PermissionCatalog {
    permissionCatalog { resource actions { action } }
  }
`);
export type Catalog = ResultOf<typeof CATALOG>["permissionCatalog"];

const WORDS: Record<string, string> = { ai: "AI", api: "API" };
/** "social_media" → "Social media", "api_keys" → "API keys". */
export const resourceName = (resource: string): string =>
  resource
    .split("_")
    .map((w, i) => WORDS[w] ?? (i === 0 ? w[0].toUpperCase() + w.slice(1) : w))
    .join(" ");

/** The real permissions of `held` (those the catalog lists), resource by resource in the catalog's order. */
export function realGroups(held: Record<string, string[]>, catalog: Catalog) {
  return catalog
    .map((entry) => ({ resource: entry.resource, all: entry.actions.map((a) => a.action), actions: entry.actions.map((a) => a.action).filter((a) => (held[entry.resource] ?? []).includes(a)) }))
    .filter((g) => g.actions.length > 0);
}

/** "Everything", "Everything but API keys", or "Reports: all; Showings: read, create" — short, in words. */
export function shortPermissions(held: Record<string, string[]>, catalog: Catalog): string {
  const groups = realGroups(held, catalog);
  if (groups.length === 0) return "None (only GET /v1/users/me)";
  const full = (resource: string) => groups.some((g) => g.resource === resource && g.actions.length === g.all.length);
  const missing = catalog.filter((e) => !full(e.resource)).map((e) => e.resource);
  if (missing.length === 0) return "Everything";
  if (missing.length === 1 && !groups.some((g) => g.resource === missing[0])) return `Everything but ${resourceName(missing[0])}`;
  return groups.map((g) => `${resourceName(g.resource)}: ${g.actions.length === g.all.length ? "all" : g.actions.join(", ")}`).join("; ");
}

/** A key's permissions, short, with every permission it holds under "Details" (a disclosure: on demand). */
export function Permissions({ held, catalog, name }: { held: Record<string, string[]>; catalog: Catalog; name: string }) {
  const groups = realGroups(held, catalog);
  return (
    <>
      <span class="perm-short">{shortPermissions(held, catalog)}</span>
      {groups.length > 0 && (
        <details class="perm-detail">
          <summary>
            Details<span class="sr-only"> of the permissions of {name}</span>
          </summary>
          <ul class="plain">
            {groups.map((g) => (
              <li key={g.resource}>
                {resourceName(g.resource)}: {g.actions.join(", ")}
              </li>
            ))}
          </ul>
        </details>
      )}
    </>
  );
}
