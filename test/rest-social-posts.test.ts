// Social media posts and the engagement import (docs/api.md "Social media posts and engagement import") against the
// real stack: JSON and CSV imports, upsert rules, per-record errors, atomic imports, lists, engagement, permissions.
import request from "supertest";
import { addKey, countStatements, createTeam, errorOf, type TestApp, type TestTeam } from "./support/app";
import { restClient } from "./support/openapi";
import { teamApp, type RestClient } from "./support/team-app";

let t: TestApp, team: TestTeam, api: RestClient;
beforeAll(async () => ({ t, team, api } = await teamApp()));
afterAll(() => t.close());

const newReport = async () => (await api.post("/v1/reports", { address: "1 Social St" })).body.data.id as string;
const importJson = (reportId: string, posts: unknown[], query = "") => api.post(`/v1/reports/${reportId}/social-posts/import${query}`, { posts });
const importCsv = (reportId: string, csv: string, query = "") =>
  request(t.app).post(`/v1/reports/${reportId}/social-posts/import${query}`).set(team.auth).set("Content-Type", "text/csv").send(csv);
const statuses = (res: { body: any }) => res.body.data.results.map((r: { status: string }) => r.status);

describe("POST /v1/reports/{reportId}/social-posts/import", () => {
  it("creates, then answers unchanged for the same body, updated for new counts and skipped_stale for older ones", async () => {
    const reportId = await newReport();
    const posts = [
      { platform: "Instagram", external_id: "ig-1", caption: "Open house", likes: 10, views: 100, posted_at: "2026-05-01T10:00:00Z", metrics_at: "2026-05-02T00:00:00Z" },
      { platform: "twitter", external_id: "tw-1", likes: 3_000_000_000, views: 9_007_199_254_740_891 }, // the report's total views: 2^53 - 1
    ];
    const first = await importJson(reportId, posts);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ created: 2, updated: 0, unchanged: 0, skipped_stale: 0, failed: 0 });
    expect(first.body.data.results[0]).toEqual({ index: 0, platform: "instagram", external_id: "ig-1", status: "created", id: expect.any(String), message: null });
    expect(first.body.data.results[1]).toMatchObject({ platform: "x", status: "created" });

    expect(statuses(await importJson(reportId, posts))).toEqual(["unchanged", "unchanged"]);
    const newer = await importJson(reportId, [{ ...posts[0], likes: 12, metrics_at: "2026-05-03T00:00:00Z" }]);
    expect(newer.body.data.results[0]).toMatchObject({ status: "updated", id: first.body.data.results[0].id });
    const older = await importJson(reportId, [{ ...posts[0], likes: 1, metrics_at: "2026-05-01T00:00:00Z" }]);
    expect(statuses(older)).toEqual(["skipped_stale"]);

    const list = await api.get(`/v1/reports/${reportId}/social-posts`);
    expect(list.body.total).toBe(2);
    const ig = list.body.data.find((p: { platform: string }) => p.platform === "instagram");
    expect(ig).toMatchObject({ external_id: "ig-1", likes: 12, views: 100, comments: null, metrics_at: "2026-05-03T00:00:00.000Z", caption: "Open house" });
    const x = list.body.data.find((p: { platform: string }) => p.platform === "x");
    expect(x).toMatchObject({ likes: 3_000_000_000, views: 9_007_199_254_740_891 });
  });

  it("reports invalid records by name and applies the others; atomic=true refuses the whole import", async () => {
    const reportId = await newReport();
    const posts = [
      { platform: "facebook", external_id: "fb-1", likes: 1 },
      { platform: "myspace", external_id: "m-1" },
      { platform: "tiktok", external_id: "tt-1", likes: -1 },
      { platform: "tiktok", external_id: "tt-2", shares: 1.5 },
      { platform: "tiktok", external_id: "tt-3", posted_at: "yesterday" },
      { platform: "youtube" },
      "nope",
      { platform: "linkedin", external_id: "li-1", caption: "x".repeat(5001) },
    ];
    const atomic = await importJson(reportId, posts, "?atomic=true");
    expect(errorOf(atomic)).toEqual({ status: 400, message: "posts[1].platform must be one of: instagram, facebook, tiktok, x, linkedin, youtube, other" });
    expect((await api.get(`/v1/reports/${reportId}/social-posts`)).body.total).toBe(0);

    const res = await importJson(reportId, posts);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ created: 1, failed: 7 });
    expect(res.body.data.results.map((r: { message: string | null }) => r.message)).toEqual([
      null,
      "posts[1].platform must be one of: instagram, facebook, tiktok, x, linkedin, youtube, other",
      "posts[2].likes must be an integer at least 0",
      "posts[3].shares must be an integer at least 0",
      "posts[4].posted_at must be an ISO 8601 date-time",
      "posts[5].external_id is required",
      "posts[6] must be an object",
      "posts[7].caption must be at most 5000 characters",
    ]);
    expect(res.body.data.results[2]).toMatchObject({ status: "error", id: null, platform: "tiktok", external_id: "tt-1" });
  });

  it("counts the later of two records with the same key and reports the earlier as a duplicate", async () => {
    const reportId = await newReport();
    const res = await importJson(reportId, [
      { platform: "x", external_id: "d-1", likes: 1 },
      { platform: "X", external_id: "d-1", likes: 2 },
    ]);
    expect(res.body.data.results.map((r: { status: string; message: string | null }) => [r.status, r.message])).toEqual([
      ["error", "posts[0] is a duplicate of a later record with the same platform and external_id"],
      ["created", null],
    ]);
    expect((await api.get(`/v1/reports/${reportId}/social-posts`)).body.data[0].likes).toBe(2);
  });

  it("imports CSV, naming a bad record by its line (a quoted multi-line record by its first)", async () => {
    const reportId = await newReport();
    const csv = [
      "platform,external_id,caption,likes,views",
      'instagram,c-1,"two',
      'lines",5,50',
      "facebook,c-2,plain,abc,10",
      "",
      "tiktok,c-3,,7,",
    ].join("\r\n");
    const res = await importCsv(reportId, csv);
    expect(res.status).toBe(200);
    expect(res.body.data.results.map((r: { status: string; message: string | null }) => [r.status, r.message])).toEqual([
      ["created", null],
      ["error", "line 4: likes must be an integer at least 0"],
      ["created", null],
    ]);
    const posts = (await api.get(`/v1/reports/${reportId}/social-posts`)).body.data;
    expect(posts.find((p: { external_id: string }) => p.external_id === "c-1")).toMatchObject({ caption: "two\nlines", likes: 5, views: 50 });
    expect(posts.find((p: { external_id: string }) => p.external_id === "c-3")).toMatchObject({ caption: null, likes: 7, views: null });
    expect(errorOf(await importCsv(reportId, csv, "?atomic=true"))).toEqual({ status: 400, message: "line 4: likes must be an integer at least 0" });
  });

  it("replays a CSV import sent again with the same Idempotency-Key, and refuses the key with another body", async () => {
    const reportId = await newReport();
    const send = (csv: string) => importCsv(reportId, csv).set("Idempotency-Key", `csv-${reportId}`);
    const first = await send("platform,external_id,likes\ninstagram,k-1,5\n");
    expect(first.body.data.created).toBe(1);
    const again = await send("platform,external_id,likes\ninstagram,k-1,5\n");
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.body).toEqual(first.body);
    expect((await send("platform,external_id,likes\ninstagram,k-1,6\n")).status).toBe(422);
  });

  it.each([
    ["a CSV without a header", "instagram,a-1,5\n", "CSV needs a header row naming its columns (at least platform, external_id) and one row per post"],
    ["an empty CSV", "", "CSV needs a header row naming its columns (at least platform, external_id) and one row per post"],
    ["a malformed CSV", 'platform,external_id\n"x,1\n', "Malformed CSV: Quote Not Closed: the parsing is finished with an opening quote at line 2"],
  ])("refuses %s with 400", async (_name, csv, message) => {
    expect(errorOf(await importCsv(await newReport(), csv))).toEqual({ status: 400, message });
  });

  it("refuses CSV that is not UTF-8, bodies that are not a list of 1 to 500 records, and other media types", async () => {
    const reportId = await newReport();
    const latin1 = Buffer.from("platform,external_id,caption\ninstagram,l-1,caf\xe9\n", "latin1");
    expect(errorOf(await request(t.app).post(`/v1/reports/${reportId}/social-posts/import`).set(team.auth).set("Content-Type", "text/csv").send(latin1))).toEqual({
      status: 400,
      message: "CSV must be encoded in UTF-8",
    });
    expect(errorOf(await api.post(`/v1/reports/${reportId}/social-posts/import`, { posts: [] }))).toEqual({ status: 400, message: "posts must have at least 1 items" });
    expect(errorOf(await api.post(`/v1/reports/${reportId}/social-posts/import`, { posts: {} }))).toEqual({ status: 400, message: "posts must be an array" });
    const many = Array.from({ length: 501 }, (_, i) => ({ platform: "x", external_id: `m-${i}` }));
    expect(errorOf(await api.post(`/v1/reports/${reportId}/social-posts/import`, { posts: many }))).toEqual({ status: 400, message: "posts must have at most 500 items" });
    expect(errorOf(await api.post(`/v1/reports/${reportId}/social-posts/import?atomic=yes`, { posts: many.slice(0, 1) }))).toEqual({ status: 400, message: "atomic must be true or false" });
    const xml = await request(t.app).post(`/v1/reports/${reportId}/social-posts/import`).set(team.auth).set("Content-Type", "application/xml").send("<posts/>");
    expect(errorOf(xml)).toEqual({ status: 415, message: "Unsupported Content-Type; send application/json or text/csv" });
    expect((await api.get(`/v1/reports/${reportId}/social-posts`)).body.total).toBe(0);
  });

  it("takes bodies up to 4 MiB, and 500 records in a constant number of statements", async () => {
    const reportId = await newReport();
    const records = (n: number, caption: string) => Array.from({ length: n }, (_, i) => ({ platform: "instagram", external_id: `big-${i}`, caption, likes: i }));
    const big = await importJson(reportId, records(500, "c".repeat(5000))); // about 2.6 MB
    expect(big.status).toBe(200);
    expect(big.body.data.created).toBe(500);
    const tooBig = await api.post(`/v1/reports/${reportId}/social-posts/import`, { posts: records(1, "x"), pad: "p".repeat(4.2 * 1024 * 1024) });
    expect(errorOf(tooBig)).toEqual({ status: 413, message: "Request body exceeds the 4 MiB limit" });

    const counts: number[] = [];
    for (const n of [1, 500]) {
      const { statements } = await countStatements(() => importJson(reportId, records(n, `round ${n}`)));
      counts.push(statements.filter((sql) => !/team_usage|api_keys|idempotency/.test(sql)).length);
    }
    expect(counts[0]).toBe(counts[1]);
    expect(counts[1]).toBeLessThanOrEqual(7); // with the report's row lock, the totals check and the webhook event in the same transaction
  });

  it("ends with one post per key and the newest counts when imports of the same posts run at once", async () => {
    const reportId = await newReport();
    const at = (hour: number) => `2026-06-01T${String(hour).padStart(2, "0")}:00:00Z`;
    const batch = (hour: number) => Array.from({ length: 50 }, (_, i) => ({ platform: "x", external_id: `race-${i}`, likes: hour, metrics_at: at(hour) }));
    const answers = await Promise.all([3, 1, 4, 2, 5].map((hour) => importJson(reportId, batch(hour))));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const list = (await api.get(`/v1/reports/${reportId}/social-posts?limit=100`)).body;
    expect(list.total).toBe(50);
    expect(new Set(list.data.map((p: { likes: number }) => p.likes))).toEqual(new Set([5]));
  });
});

describe("imports at their limits and at once", () => {
  it("eight identical imports at once: the posts are created once, every other record is unchanged, one event", async () => {
    const reportId = await newReport();
    const posts = Array.from({ length: 125 }, (_, i) => ({ platform: "instagram", external_id: `same-${i}`, caption: "Same", likes: i }));
    const answers = await Promise.all(Array.from({ length: 8 }, () => importJson(reportId, posts)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    const sum = (name: string) => answers.reduce((n, a) => n + a.body.data[name], 0);
    expect({ created: sum("created"), updated: sum("updated"), unchanged: sum("unchanged"), skipped_stale: sum("skipped_stale") }).toEqual({
      created: 125,
      updated: 0,
      unchanged: 875,
      skipped_stale: 0,
    });
    const events = (await api.get("/v1/events?type=social_posts.imported&limit=100")).body.data;
    expect(events.filter((e: { data: { report_id: string } }) => e.data.report_id === reportId)).toHaveLength(1);
  });

  it("refuses an import that would take a report's engagement total past 2^53 - 1, naming the count; nothing is saved", async () => {
    const reportId = await newReport();
    const max = Number.MAX_SAFE_INTEGER;
    const past = (names: string) =>
      `The import would take the report's total ${names} past 9007199254740991 (2^53 - 1, the largest integer a JSON number holds exactly); nothing was saved`;
    const both = await importJson(reportId, [
      { platform: "x", external_id: "a", likes: max },
      { platform: "x", external_id: "b", likes: 2 }, // the sum, 2^53 + 1, would read back as 2^53
    ]);
    expect(errorOf(both)).toEqual({ status: 400, message: past("likes") });
    expect((await api.get(`/v1/reports/${reportId}/social-posts`)).body.total).toBe(0);

    expect((await importJson(reportId, [{ platform: "x", external_id: "a", likes: max, views: max }])).status).toBe(200);
    expect(errorOf(await importCsv(reportId, "platform,external_id,likes,views\ntiktok,c,1,1\n"))).toEqual({ status: 400, message: past("likes and views") });
    // Lowering one post while adding another keeps the total within the limit.
    const lowered = await importJson(reportId, [{ platform: "x", external_id: "a", likes: max - 1, views: max }, { platform: "tiktok", external_id: "c", likes: 1 }]);
    expect(lowered.body.data).toMatchObject({ created: 1, updated: 1 });
    expect((await api.get(`/v1/reports/${reportId}/social-engagement`)).body.data.totals).toMatchObject({ posts: 2, likes: max, views: max });
  });

  const header = "platform,external_id,caption\n";
  it.each([
    ["159,000 rows", header + Array.from({ length: 159_000 }, (_, i) => `x,r${i},\n`).join(""), "CSV must have at most 500 records (rows after the header)"],
    ["a header of 300,000 columns", `platform,external_id,${Array.from({ length: 300_000 }, (_, i) => `c${i}`).join(",")}\nx,1\n`, "CSV records must have at most 100 columns; line 1 has more"],
    ["a header of 101 columns", `platform,external_id,${Array.from({ length: 99 }, (_, i) => `c${i}`).join(",")}\nx,1${",".repeat(99)}\n`, "CSV records must have at most 100 columns; line 1 has more"],
    ["a row of 4,000,000 commas", `${header}x,"1,\n2",${",".repeat(4_000_000)}\n`, "CSV records must have at most 100 columns; line 2 has more"],
    ["a record of 70,000 characters", `${header}x,1,${"c".repeat(70_000)}\n`, "A CSV record must be at most 65536 bytes; one passes it at line 2"],
    ["a caption of 4,000,000 line breaks", `${header}x,1,"${"\n".repeat(4_000_000)}"\n`, "A CSV record must be at most 65536 bytes; one passes it at line 65537"],
  ])("refuses a CSV of %s at once with 400 naming the limit; nothing is saved", async (_name, csv, message) => {
    const reportId = await newReport();
    expect(errorOf(await importCsv(reportId, csv))).toEqual({ status: 400, message });
    expect((await api.get(`/v1/reports/${reportId}/social-posts`)).body.total).toBe(0);
  });
});

describe("lists, posts and engagement", () => {
  it("lists newest posted_at first with a platform filter, gets and deletes a post", async () => {
    const reportId = await newReport();
    await importJson(reportId, [
      { platform: "instagram", external_id: "a", posted_at: "2026-05-01T00:00:00Z" },
      { platform: "facebook", external_id: "b", posted_at: "2026-05-03T00:00:00Z" },
      { platform: "instagram", external_id: "c", posted_at: "2026-05-02T00:00:00Z" },
    ]);
    expect((await api.get(`/v1/reports/${reportId}/social-posts`)).body.data.map((p: { external_id: string }) => p.external_id)).toEqual(["b", "c", "a"]);
    const ig = await api.get(`/v1/reports/${reportId}/social-posts?platform=INSTAGRAM`);
    expect(ig.body).toMatchObject({ total: 2, data: [{ external_id: "c" }, { external_id: "a" }] });
    expect(errorOf(await api.get(`/v1/reports/${reportId}/social-posts?platform=myspace`))).toEqual({
      status: 400,
      message: "platform must be one of: instagram, facebook, tiktok, x, linkedin, youtube, other",
    });
    const post = ig.body.data[0];
    expect((await api.get(`/v1/social-posts/${post.id}`)).body.data).toEqual(post);
    expect((await api.get(`/v1/reports/${reportId}`)).body.data.social_media_posts).toHaveLength(3);
    expect((await api.delete(`/v1/social-posts/${post.id}`)).body).toEqual({ message: "Social media post deleted successfully" });
    expect(errorOf(await api.get(`/v1/social-posts/${post.id}`))).toEqual({ status: 404, message: "Social media post not found" });
    const other = restClient(t.app, (await createTeam()).auth);
    expect(errorOf(await other.get(`/v1/social-posts/${ig.body.data[1].id}`))).toEqual({ status: 404, message: "Social media post not found" });
    expect(errorOf(await other.get(`/v1/reports/${reportId}/social-posts`))).toEqual({ status: 404, message: "Report not found" });
  });

  it("sums engagement in total and per platform, with one engagement rate formula", async () => {
    const reportId = await newReport();
    expect((await api.get(`/v1/reports/${reportId}/social-engagement`)).body.data).toEqual({
      totals: { posts: 0, likes: 0, comments: 0, shares: 0, saves: 0, views: 0, reach: 0, engagement_rate: null, last_metrics_at: null },
      platforms: [],
    });
    await importJson(reportId, [
      { platform: "instagram", external_id: "1", likes: 30, comments: 5, shares: 3, saves: 2, views: 1000, metrics_at: "2026-05-02T00:00:00Z" },
      { platform: "instagram", external_id: "2", likes: 10, views: 300, reach: 250, metrics_at: "2026-05-04T00:00:00Z" },
      { platform: "facebook", external_id: "3", likes: 7, metrics_at: "2026-05-01T00:00:00Z" }, // no views: not in the rate
    ]);
    const { data } = (await api.get(`/v1/reports/${reportId}/social-engagement`)).body;
    // instagram: (30 + 5 + 3 + 2 + 10) / 1300 = 0.03846…; totals the same (facebook has no views)
    expect(data.totals).toEqual({ posts: 3, likes: 47, comments: 5, shares: 3, saves: 2, views: 1300, reach: 250, engagement_rate: 0.0385, last_metrics_at: "2026-05-04T00:00:00.000Z" });
    expect(data.platforms).toEqual([
      { platform: "facebook", posts: 1, likes: 7, comments: 0, shares: 0, saves: 0, views: 0, reach: 0, engagement_rate: null, last_metrics_at: "2026-05-01T00:00:00.000Z" },
      { platform: "instagram", posts: 2, likes: 40, comments: 5, shares: 3, saves: 2, views: 1300, reach: 250, engagement_rate: 0.0385, last_metrics_at: "2026-05-04T00:00:00.000Z" },
    ]);
  });

  it("answers 403 naming the social_media permission of each action", async () => {
    const reportId = await newReport();
    const reader = restClient(t.app, await addKey(team.teamId, "reports:read,social_media:read"));
    expect(errorOf(await reader.post(`/v1/reports/${reportId}/social-posts/import`, { posts: [{ platform: "x", external_id: "1" }] }))).toEqual({
      status: 403,
      message: "Permission denied: social_media:create",
    });
    const creator = restClient(t.app, await addKey(team.teamId, "social_media:create"));
    expect(errorOf(await creator.post(`/v1/reports/${reportId}/social-posts/import`, { posts: [{ platform: "x", external_id: "1" }] }))).toEqual({
      status: 403,
      message: "Permission denied: social_media:update",
    });
    const none = restClient(t.app, await addKey(team.teamId, "reports:read"));
    for (const res of [await none.get(`/v1/reports/${reportId}/social-posts`), await none.get(`/v1/reports/${reportId}/social-engagement`)]) {
      expect(errorOf(res)).toEqual({ status: 403, message: "Permission denied: social_media:read" });
    }
    expect(errorOf(await reader.delete(`/v1/social-posts/00000000-0000-4000-8000-000000000000`))).toEqual({ status: 403, message: "Permission denied: social_media:delete" });
  });
});

it("works the same in GraphQL, with counts above 2^31 - 1", async () => {
  const reportId = await newReport();
  const gql = (query: string, variables: Record<string, unknown>) => request(t.app).post("/graphql").set(team.auth).send({ query, variables });
  const imported = await gql(
    `mutation($r: ID!, $p: [JSON!]!) { importSocialMediaPosts(reportId: $r, posts: $p) { created failed results { status message } } }`,
    { r: reportId, p: [{ platform: "youtube", external_id: "yt-1", views: 5_000_000_000 }, { platform: "youtube" }] },
  );
  expect(imported.body.data.importSocialMediaPosts).toEqual({
    created: 1,
    failed: 1,
    results: [{ status: "created", message: null }, { status: "error", message: "posts[1].external_id is required" }],
  });
  const read = await gql(
    `query($r: ID!) { socialMediaPosts(reportId: $r) { items { views } } socialEngagement(reportId: $r) { totals { views } } report(id: $r) { engagement { platforms { platform views } } } }`,
    { r: reportId },
  );
  expect(read.body.data).toEqual({
    socialMediaPosts: { items: [{ views: 5_000_000_000 }] },
    socialEngagement: { totals: { views: 5_000_000_000 } },
    report: { engagement: { platforms: [{ platform: "youtube", views: 5_000_000_000 }] } },
  });
});
