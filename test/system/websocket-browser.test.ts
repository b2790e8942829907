// GraphQL over WebSocket from a browser (docs/api.md "WebSocket transport"): a page served from another origin runs
// Apollo Client with GraphQLWsLink (bundled with esbuild from @apollo/client and graphql-ws) in Chromium against the
// service — a query over the socket, then a subscription that receives the change a mutation over HTTP commits.
// A page whose origin is not allowed cannot open the socket. Needs Debian's chromium (or CHROMIUM_PATH).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { build } from "esbuild";
import request from "supertest";
import { chromium, type Browser } from "playwright-core";
import { attachWebSockets, originAllowed } from "../../src/yoga/websocket";
import { createTeam, seedReport, startTestApp, type TestApp, type TestTeam } from "../support/app";
import { CHROMIUM, chromiumFor } from "../support/chromium";

const available = chromiumFor("WebSocket browser tests");

const PAGE_SCRIPT = `
import { ApolloClient, InMemoryCache, gql } from "@apollo/client/core";
import { GraphQLWsLink } from "@apollo/client/link/subscriptions";
import { createClient } from "graphql-ws";

window.run = async (url, key, reportId) => {
  const closes = [];
  const wsClient = createClient({ url, connectionParams: { authorization: "Bearer " + key }, retryAttempts: 0, on: { closed: (e) => closes.push(e.code) } });
  const client = new ApolloClient({ link: new GraphQLWsLink(wsClient), cache: new InMemoryCache() });
  const read = await client.query({ query: gql\`query($id: ID!) { report(id: $id) { id address } }\`, variables: { id: reportId } });
  const events = [];
  const subscribed = client.subscribe({ query: gql\`subscription($id: ID!) { reportEvents(reportId: $id) { id type report { id listingAgent } } }\`, variables: { id: reportId } });
  const first = new Promise((resolve, reject) => subscribed.subscribe({ next: (r) => (events.push(r.data), resolve(r.data)), error: reject }));
  window.subscriptionStarted = true;
  return { read: read.data, first: await first, closes };
};
`;

/** Serves `html` and the page's script at / and /app.js of a free loopback port. */
async function site(script: string): Promise<{ server: http.Server; origin: string }> {
  const server = http.createServer((req, res) => {
    if (req.url === "/app.js") return void res.writeHead(200, { "Content-Type": "text/javascript" }).end(script);
    res.writeHead(200, { "Content-Type": "text/html" }).end('<!doctype html><title>ws</title><script src="/app.js"></script>');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

(available ? describe : describe.skip)("Apollo Client's GraphQLWsLink in Chromium", () => {
  let t: TestApp;
  let team: TestTeam;
  let api: http.Server;
  let apiOrigin: string;
  let page: { server: http.Server; origin: string };
  let browser: Browser;
  let reportId: string;

  beforeAll(async () => {
    t = await startTestApp();
    team = await createTeam({ permissions: "reports:*" });
    reportId = (await seedReport(team.teamId, "5 Browser Socket Road")).id;
    api = http.createServer(t.app);
    attachWebSockets(api, t.app);
    await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
    apiOrigin = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
    const bundled = await build({ stdin: { contents: PAGE_SCRIPT, resolveDir: __dirname, loader: "js" }, bundle: true, format: "iife", platform: "browser", write: false, define: { "process.env.NODE_ENV": '"production"', "globalThis.__DEV__": "false" } });
    page = await site(bundled.outputFiles[0].text);
    browser = await chromium.launch({ executablePath: CHROMIUM });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await (t?.app.locals as { webSockets?: { close(): Promise<void> } } | undefined)?.webSockets?.close();
    api?.closeAllConnections();
    await new Promise((resolve) => api?.close(resolve));
    await new Promise((resolve) => page?.server.close(resolve));
    await t?.close();
  });

  it("queries over the socket and receives a change committed over HTTP on a subscription", async () => {
    const tab = await (await browser.newContext()).newPage();
    await tab.goto(page.origin);
    const running = tab.evaluate(([url, key, id]) => (window as unknown as { run: (u: string, k: string, i: string) => Promise<unknown> }).run(url, key, id), [`${apiOrigin.replace("http", "ws")}/graphql`, team.key, reportId] as const);
    await tab.waitForFunction(() => (window as unknown as { subscriptionStarted?: boolean }).subscriptionStarted === true);
    // graphql-ws says nothing when a subscription's stream opened: the report is changed until one change arrives.
    let result: { read: unknown; first: { reportEvents: { type: string; report: { id: string; listingAgent: string } } } } | undefined;
    for (let attempt = 1; !result; attempt++) {
      const changed = await request(t.app).post("/graphql").set(team.auth).send({ query: `mutation($r: ID!) { updateReport(id: $r, input: { listingAgent: "From HTTP" }) { id } }`, variables: { r: reportId } });
      expect(changed.body.errors).toBeUndefined();
      result = (await Promise.race([running, new Promise((resolve) => setTimeout(resolve, 1000 * attempt))])) as typeof result;
    }
    expect(result.read).toMatchObject({ report: { id: reportId, address: "5 Browser Socket Road" } });
    expect(result.first.reportEvents).toMatchObject({ type: "report.updated", report: { id: reportId, listingAgent: "From HTTP" } });
    await tab.context().close();
  }, 60_000);

  it("lets a page's origin open a socket only when it is the service's own or configured (CORS_ORIGINS)", () => {
    const host = new URL(apiOrigin).host;
    expect(originAllowed(page.origin, host, [])).toBe(false);
    expect(originAllowed(page.origin, host, [page.origin])).toBe(true);
    expect(originAllowed(apiOrigin, host, [])).toBe(true);
  });
});
