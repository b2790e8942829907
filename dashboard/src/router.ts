// The dashboard's routes live in the URL's fragment, always as "#/<page>[/<id>][?<params>]" (the server serves one
// page). A fragment that does not start with "#/" is an in-page anchor (the skip link's #main), never a route: it
// leaves the current page in place.
import { useEffect, useState } from "preact/hooks";

export interface Route {
  /** The path's parts: ["reports", "<id>"]; [] for the dashboard's root. */
  path: string[];
  params: URLSearchParams;
}

/** The route of `hash`, or null when it is an in-page anchor rather than a route. */
export function parseRoute(hash: string): Route | null {
  if (hash === "" || hash === "#" || hash === "#/") return { path: [], params: new URLSearchParams() };
  if (!hash.startsWith("#/")) return null;
  const [path, query = ""] = hash.slice(2).split("?", 2);
  return { path: path.split("/").filter(Boolean).map(decodeURIComponent), params: new URLSearchParams(query) };
}

/** The fragment of a route: href(["reports"], { page: 2 }) is "#/reports?page=2"; empty parameters are left out. */
export function href(path: string[], params: Record<string, string | number | null | undefined> = {}): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== null && value !== undefined && value !== "") query.set(name, String(value));
  const text = query.toString();
  return `#/${path.map(encodeURIComponent).join("/")}${text ? `?${text}` : ""}`;
}

/** Goes to a route as a link would: a new history entry, so Back returns to where the user was. */
export const navigate = (path: string[], params: Record<string, string | number | null | undefined> = {}): void => {
  window.location.hash = href(path, params);
};

/** The current route, following the URL; in-page anchors keep the last route. */
export function useRoute(): Route {
  const [route, setRoute] = useState<Route>(() => parseRoute(window.location.hash) ?? { path: [], params: new URLSearchParams() });
  useEffect(() => {
    const onChange = () => {
      const next = parseRoute(window.location.hash);
      if (next) setRoute(next);
    };
    window.addEventListener("hashchange", onChange);
    return () => window.removeEventListener("hashchange", onChange);
  }, []);
  return route;
}
