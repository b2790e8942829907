// The GraphiQL page at GET /graphql (@graphql-yoga/render-graphiql), rendered once. GraphiQL fetches the schema when
// the page opens — without a key that is a 401 — and again only from its re-fetch button: a small script of ours
// presses that button once the Headers editor's text has been left alone for a moment after it changed (typed, pasted
// or dropped: the editor's text is watched, not keyboard events, which a paste does not send), so the docs explorer
// shows the schema as soon as a key is pasted. Allowed by the page's content security policy by hash, like the page's
// own script (security.ts).
//
// The key stays out of persistent storage: GraphiQL keeps its state (tabs, history) in the tab's sessionStorage
// instead of localStorage, and does not store the headers at all (shouldPersistHeaders: false), like the dashboard.

const DEFAULT_QUERY = `# Put your API key in the Headers panel below: {"Authorization": "Bearer prs_sk_live_…"}
query Overview {
  me {
    team { name reportsCount }
    rateLimit { tier remaining resetsAt }
  }
  reports(limit: 5) {
    total
    items {
      id address city state price status showingsCount
      showings { showingDate attendeeName eventType }
    }
  }
}
`;

export const GRAPHIQL_OPTIONS = { title: "Property Report Service", defaultQuery: DEFAULT_QUERY, headers: '{"Authorization": "Bearer "}', shouldPersistHeaders: false };

/** Re-fetches the schema 600 ms after the Headers editor's text last changed (typing, pasting or dropping a key). */
const REFETCH_ON_HEADERS = `(() => {
  let timer;
  let last = null;
  const text = () => document.querySelector('.monaco-editor[data-uri$="-headers.json"] .view-lines')?.textContent ?? null;
  new MutationObserver(() => {
    const now = text();
    if (!now || now === last) return; // not rendered yet, emptied, or unchanged
    const first = last === null;
    last = now;
    if (first) return; // the editor's first rendering: GraphiQL fetches the schema itself
    clearTimeout(timer);
    timer = setTimeout(() => document.querySelector('button[aria-label^="Re-fetch GraphQL schema"]')?.click(), 600);
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
})();`;

/** Our title in GraphiQL's logo corner at full contrast (GraphiQL dims it below 4.5:1). */
const OWN_STYLE = `.graphiql-container .graphiql-logo { color: hsl(var(--color-neutral)); }`;

let rendered: string | undefined;

/**
 * The page as served, rendered on first use: the renderer and its 9 MB page cost a process that never serves it (a
 * CLI command, a test of REST alone) about 0.2 s of CPU.
 */
export function graphiqlPage(): string {
  rendered ??= render();
  return rendered;
}

function render(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded when the page is first asked for, not by every process that builds the app
  const { renderGraphiQL } = require("@graphql-yoga/render-graphiql") as typeof import("@graphql-yoga/render-graphiql");
  const options = JSON.stringify(GRAPHIQL_OPTIONS);
  // The renderer writes the options as JSON; GraphiQL's storage is an object, given here in the same call.
  const page = renderGraphiQL(GRAPHIQL_OPTIONS).replace(options, `Object.assign(${options}, { storage: window.sessionStorage })`);
  if (!page.includes("storage: window.sessionStorage")) throw new Error("GraphiQL page: the options were not found to give it sessionStorage");
  const end = page.lastIndexOf("</body>"); // the last: the page's own script has the text too
  const head = page.indexOf("</head>");
  return `${page.slice(0, head)}<style>${OWN_STYLE}</style>${page.slice(head, end)}<script>${REFETCH_ON_HEADERS}</script>${page.slice(end)}`;
}
