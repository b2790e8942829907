// The GraphiQL page at GET /graphql (@graphql-yoga/render-graphiql), rendered once. GraphiQL fetches the schema when
// the page opens — without a key that is a 401 — and again only from its re-fetch button: a small script of ours
// presses that button once the Headers editor has been left alone for a moment after a change, so the docs explorer
// shows the schema as soon as a key is pasted. Allowed by the page's content security policy by hash, like the page's
// own script (security.ts).

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

export const GRAPHIQL_OPTIONS = { title: "Property Report Service", defaultQuery: DEFAULT_QUERY, headers: '{"Authorization": "Bearer "}' };

/** Re-fetches the schema 600 ms after the last edit of the Headers editor (typing or pasting a key). */
const REFETCH_ON_HEADERS = `(() => {
  let timer;
  document.addEventListener("input", (event) => {
    const target = event.target;
    if (!(target instanceof Element) || !target.closest('section.graphiql-editor-tool[aria-label="Headers"]')) return;
    clearTimeout(timer);
    timer = setTimeout(() => document.querySelector('button[aria-label^="Re-fetch GraphQL schema"]')?.click(), 600);
  }, true);
})();`;

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
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { renderGraphiQL } = require("@graphql-yoga/render-graphiql") as typeof import("@graphql-yoga/render-graphiql");
  const page = renderGraphiQL(GRAPHIQL_OPTIONS);
  const end = page.lastIndexOf("</body>"); // the last: the page's own script has the text too
  return `${page.slice(0, end)}<script>${REFETCH_ON_HEADERS}</script>${page.slice(end)}`;
}
