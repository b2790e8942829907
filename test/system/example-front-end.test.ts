// The example front-end (examples/front-end) built with Vite and run in headless Chromium against
// the service: its documents are registered as the team's trusted documents, its key is limited to them, and the
// page lists the reports (a page at a time) and opens one with its showings and comparables, which update live when a
// showing is added through REST (reportEvents over server-sent events), sending only document ids. The app is
// served from an origin of its own, as a deployed front-end is (its files from a CDN or `vite` while developing), so
// it reaches the API through CORS (the service's default CORS_ORIGINS "*": keys are bearer tokens, never cookies).
// Also: the committed generated documents are what the code generator writes, so they cannot drift from
// src/documents.graphql and schema.graphql, and the example type-checks. Its code generator is in the example's own
// package.json (kept out of the service's `npm install`), installed here on first use. The browser part needs Debian's
// chromium (or CHROMIUM_PATH) like test/system/browser.test.ts; a screenshot of the report page goes to
// artifacts/screenshots/example-front-end-report.png.
import { execFile } from "node:child_process";
import { createReadStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { chromium, type Browser, type Page } from "playwright-core";
import { createTeam, startTestApp, type TestApp, type TestTeam } from "../support/app";
import { restClient } from "../support/openapi";
import { CHROMIUM, chromiumFor, keepScreenshot } from "../support/chromium";

const run = promisify(execFile);
const ROOT = path.join(__dirname, "..", "..");
const EXAMPLE = path.join(ROOT, "examples", "front-end");
const MANIFEST = path.join(EXAMPLE, "src", "gql", "persisted-documents.json");
const available = chromiumFor("example front-end tests");
const manifest = () => JSON.parse(readFileSync(MANIFEST, "utf8")) as Record<string, string>;
const manifestIds = () => Object.keys(manifest());
/** The id of the manifest's operation `name`. */
const idOf = (name: string) => Object.entries(manifest()).find(([, text]) => new RegExp(`^\\w+ ${name}\\b`).test(text))![0];

/** "passed", or what the command printed when it failed. */
const outcomeOf = (command: Promise<unknown>) =>
  command.then(
    () => "passed",
    (err: { stdout: string; stderr: string }) => `${err.stdout}${err.stderr}`.trim(),
  );

/**
 * The example's own packages (examples/front-end/package.json: its code generator), installed from its lockfile when
 * missing or not the locked versions, as bench/peers.ts installs its PostGraphile: about a minute the first time.
 * Its tree warns EBADENGINE on Node 20 (it is why it is not the service's), so only errors are shown.
 */
async function ensureExamplePackages(): Promise<void> {
  type Lock = { packages: Record<string, { version?: string; devDependencies?: Record<string, string> }> };
  const { packages } = JSON.parse(readFileSync(path.join(EXAMPLE, "package-lock.json"), "utf8")) as Lock;
  const direct = Object.keys(packages[""].devDependencies ?? {});
  const installed = (name: string) => {
    const file = path.join(EXAMPLE, "node_modules", name, "package.json");
    return existsSync(file) && (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version === packages[`node_modules/${name}`].version;
  };
  if (direct.every(installed)) return;
  await run("npm", ["ci", "--prefix", EXAMPLE, "--no-audit", "--no-fund", "--loglevel=error"], { cwd: ROOT });
}

describe("the example front-end's sources", () => {
  beforeAll(() => ensureExamplePackages(), 300_000);

  it("hold what GraphQL Code Generator writes from their documents and the committed schema.graphql (npm run codegen)", async () => {
    const codegen = path.join(EXAMPLE, "node_modules", "@graphql-codegen", "cli", "esm", "bin.js");
    // --check: writes nothing, exits 1 listing the stale files. From the example's folder, where its presets are.
    expect(await outcomeOf(run(process.execPath, [codegen, "--config", "codegen.ts", "--check", "--silent"], { cwd: EXAMPLE }))).toBe("passed");
  });

  it("type-check (tsc -p examples/front-end, with the example's packages)", async () => {
    const tsc = path.join(ROOT, "node_modules", "typescript", "bin", "tsc");
    expect(await outcomeOf(run(process.execPath, [tsc, "-p", EXAMPLE], { cwd: ROOT }))).toBe("passed");
  }, 120_000);
});

/** Serves the files of `dir` (index.html at /). */
function staticFiles(dir: string): http.RequestListener {
  const TYPES: Record<string, string> = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".css": "text/css" };
  return (req, res) => {
    const file = path.join(dir, path.normalize(new URL(req.url ?? "/", "http://x").pathname).replace(/^[/\\]+/, "") || "index.html");
    if (!file.startsWith(dir) || !existsSync(file) || statSync(file).isDirectory()) return void res.writeHead(404).end();
    res.writeHead(200, { "Content-Type": TYPES[path.extname(file)] ?? "application/octet-stream" });
    createReadStream(file).pipe(res);
  };
}

async function listen(handler: http.RequestListener): Promise<{ server: http.Server; origin: string }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

(available ? describe : describe.skip)("the example front-end in Chromium", () => {
  let t: TestApp;
  let admin: TestTeam;
  let browserKey: string;
  let reportId: string;
  let api: { server: http.Server; origin: string };
  let site: { server: http.Server; origin: string };
  let dist: string;
  let browser: Browser;
  let page: Page;
  /** What the page did that it must not: errors, requests leaving the machine, query text or the key in a URL. */
  let problems: string[];
  /** The GraphQL requests the page sent, as "<method> <documentId>". */
  let sent: string[];

  beforeAll(async () => {
    t = await startTestApp();
    api = await listen(t.app);
    admin = await createTeam({ name: "Example Realty", permissions: "reports:*,showings:*,comparables:*,api_keys:*" });
    const rest = restClient(t.app, admin.auth);
    reportId = (await rest.post("/v1/reports", { address: "12 Example Lane", city: "Springfield", state: "IL", price: 700000 })).body.data.id;
    await rest.post("/v1/showings", { report_id: reportId, attendee_name: "Jordan Buyer", showing_date: "2026-05-01T14:00:00Z", rating: 4 });
    await rest.post(`/v1/reports/${reportId}/comparables`, { address: "14 Example Lane", price: 690000, sqft: 2000, distance_miles: 0.2 });
    await rest.post(`/v1/reports/${reportId}/comparables`, { address: "16 Example Lane", price: 720000, sqft: 2100, distance_miles: 0.3 });
    await rest.post("/v1/reports", { address: "40 Second Street", price: 350000 });
    for (let n = 1; n <= 9; n++) await rest.post("/v1/reports", { address: `${n} Filler Road`, price: 100000 * n });

    // What the example's README tells a team to do: its setup script registers the generated manifest and makes a key
    // limited to those documents.
    const setup = await run(process.execPath, [path.join(EXAMPLE, "setup.mjs"), api.origin], { env: { ...process.env, PRS_ADMIN_KEY: admin.key } });
    expect(setup.stderr).toContain(`documents: ${manifestIds().length} registered, 0 registered before`);
    browserKey = setup.stdout.trim();
    expect(browserKey).toMatch(/^prs_sk_live_\w+$/);

    dist = mkdtempSync(path.join(tmpdir(), "prs-example-"));
    const vite = path.join(path.dirname(require.resolve("vite/package.json")), "bin", "vite.js");
    await run(process.execPath, [vite, "build", EXAMPLE, "--outDir", dist, "--emptyOutDir", "--logLevel", "warn"], {
      cwd: ROOT,
      env: { ...process.env, VITE_PRS_API: api.origin, VITE_PRS_KEY: browserKey },
    });
    site = await listen(staticFiles(dist));

    browser = await chromium.launch({ executablePath: CHROMIUM });
    page = await (await browser.newContext({ viewport: { width: 1000, height: 800 } })).newPage();
    page.setDefaultTimeout(10_000);
    problems = [];
    sent = [];
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(`console: ${m.text()}`);
    });
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    page.on("request", (r) => {
      const url = new URL(r.url());
      if (url.origin !== api.origin && url.origin !== site.origin) problems.push(`request leaving the machine: ${r.url()}`);
      if (r.url().includes(browserKey)) problems.push(`the key in a URL: ${r.url()}`);
      if (url.origin === api.origin && url.pathname === "/graphql" && r.method() !== "OPTIONS") {
        const body = r.postDataJSON() as { query?: string; documentId?: string } | null;
        if (url.searchParams.has("query") || body?.query) problems.push(`query text sent: ${r.url()}`);
        sent.push(`${r.method()} ${url.searchParams.get("documentId") ?? body?.documentId}`);
      }
    });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.server.close(resolve));
    api?.server.closeAllConnections();
    await new Promise((resolve) => api?.server.close(resolve));
    if (dist) rmSync(dist, { recursive: true, force: true });
    await t?.close();
  });
  afterEach(() => expect(problems).toEqual([]));

  it("ships no query text: the built files hold the documents' ids only", () => {
    const built = path.join(dist, "assets");
    const code = readdirSync(built)
      .map((f) => readFileSync(path.join(built, f), "utf8"))
      .join("\n");
    for (const id of manifestIds()) expect(code).toContain(id);
    expect(code).not.toMatch(/query Report/);
  });

  it("lists the team's reports a page at a time, from another origin, by documentId over GET", async () => {
    await page.goto(`${site.origin}/`);
    await page.getByRole("heading", { name: "Reports", level: 1 }).waitFor();
    await page.getByText("11 reports").waitFor();
    const items = page.getByRole("list", { name: "Reports" }).getByRole("link");
    expect(await items.allInnerTexts()).toEqual([...Array.from({ length: 9 }, (_, i) => `${9 - i} Filler Road`), "40 Second Street"]);
    await page.getByRole("button", { name: "More reports" }).click();
    await page.getByRole("link", { name: "12 Example Lane, Springfield, IL" }).waitFor();
    expect(await items.count()).toBe(11);
    expect(await page.getByRole("button", { name: "More reports" }).count()).toBe(0);
    expect(sent).toEqual([`GET ${idOf("Reports")}`, `GET ${idOf("Reports")}`]);
  });

  it("opens a report with its showings and comparables, and subscribes to its changes", async () => {
    await page.getByRole("link", { name: "12 Example Lane, Springfield, IL" }).click();
    await page.getByRole("heading", { name: "12 Example Lane", level: 1 }).waitFor();
    expect(page.url()).toBe(`${site.origin}/#/reports/${reportId}`);
    await page.getByRole("status").getByText("Live: changes appear as they are made").waitFor();
    const showings = page.getByRole("list", { name: "Showings" }).getByRole("listitem");
    expect(await showings.allInnerTexts()).toEqual(["May 1, 2026, 2:00 PM UTC: showing with Jordan Buyer, rated 4/5"]);
    const rows = page.getByRole("table", { name: "Comparables" }).locator("tbody tr");
    expect(await rows.allInnerTexts()).toEqual(["14 Example Lane\t$690,000\t2000\t0.2 mi", "16 Example Lane\t$720,000\t2100\t0.3 mi"]);
    expect(sent).toContain(`POST ${idOf("ReportChanges")}`);
    for (const s of sent) expect(manifestIds().map((id) => id)).toContain(s.split(" ")[1]);
  });

  it("shows a showing added through the REST API, and a changed price, without reloading the page", async () => {
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    const rest = restClient(t.app, admin.auth);
    await rest.post("/v1/showings", { report_id: reportId, attendee_name: "Riley Live", showing_date: "2026-05-02T10:30:00Z", rating: 5 });
    const showings = page.getByRole("list", { name: "Showings" }).getByRole("listitem");
    await showings.getByText("Riley Live").waitFor();
    expect(await showings.allInnerTexts()).toEqual([
      "May 1, 2026, 2:00 PM UTC: showing with Jordan Buyer, rated 4/5",
      "May 2, 2026, 10:30 AM UTC: showing with Riley Live, rated 5/5",
    ]);
    await page.getByRole("heading", { name: "Showings (2)" }).waitFor();
    // A change of the report itself: the page reads the report again.
    await rest.patch(`/v1/reports/${reportId}`, { price: 715000 });
    await page.getByText("$715,000").waitFor();
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    await keepScreenshot(page, "example-front-end-report.png");
  });

  it("ships a key that runs the registered documents and nothing else: other GraphQL and REST are refused 403", async () => {
    const answers = await page.evaluate(
      async ({ origin, key, id }) => {
        const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
        const text = await fetch(`${origin}/graphql`, { method: "POST", headers, body: JSON.stringify({ query: "{ reports { total } }" }) });
        const rest = await fetch(`${origin}/v1/reports`, { headers });
        const byId = await fetch(`${origin}/graphql`, { method: "POST", headers, body: JSON.stringify({ documentId: id, variables: { first: 1 } }) });
        return [
          { status: text.status, body: await text.json() },
          { status: rest.status, body: await rest.json() },
          { status: byId.status, total: (await byId.json()).data?.reportsConnection.totalCount },
        ];
      },
      { origin: api.origin, key: browserKey, id: idOf("Reports") },
    );
    // This test's own query text, and the page's console reporting the two refused requests.
    expect(problems.splice(0).map((p) => p.replace(/ \(.*$/, "")).sort()).toEqual([
      "console: Failed to load resource: the server responded with a status of 403",
      "console: Failed to load resource: the server responded with a status of 403",
      `query text sent: ${api.origin}/graphql`,
    ]);
    expect(answers[0].status).toBe(403);
    expect(answers[0].body.errors[0].message).toBe("Permission denied: this key runs registered documents only");
    expect(answers[1]).toEqual({ status: 403, body: { error: { message: "Permission denied: this key runs registered documents only", status: 403 } } });
    expect(answers[2]).toEqual({ status: 200, total: 11 });
  });
});
