// Every write that takes a report — by id in its path or body, or an item the report holds — raced against that
// report's delete: each answers as if it ran wholly before the delete (2xx) or wholly after it (404), never 5xx,
// and nothing is left pointing at the deleted report. The writes are listed from the OpenAPI document, so a new
// write route of a report fails the coverage test until it is raced here too.
import { randomUUID } from "node:crypto";
import sharp from "sharp";
import request from "supertest";
import { prisma } from "../../src/db";
import { createTeam, startTestApp, type TestApp, type TestTeam } from "../support/app";

let t: TestApp;
let team: TestTeam;
/** A small JPEG for the photo uploads. */
let image: Buffer;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam();
  image = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#8a9" } }).jpeg().toBuffer();
});
afterAll(() => t.close());

const send = (method: "post" | "put" | "patch" | "delete", path: string) => request(t.app)[method](path).set(team.auth);

/** The report and one item of each kind it holds (only those a racer needs). */
interface Fixture {
  reportId: string;
  showingId: string;
  comparableId: string;
  insightId: string;
  postId: string;
  linkId: string;
  signInLinkId: string;
  /** A photo of the report, and one of its comparable (comparableId). */
  photoId: string;
  comparablePhotoId: string;
}
type Item = Exclude<keyof Fixture, "reportId">;

interface Racer {
  /** The OpenAPI operationId it exercises. */
  op: string;
  needs?: Item;
  run: (f: Fixture, n: number) => request.Test;
}

const csv = (n: number) => `platform,external_id,likes\ninstagram,race-${n},${n}\ntiktok,race-${n},1\n`;

/** Uploads a photo of the report (or of its comparable) through the API: the multipart body as a client sends it. */
const upload = (f: Fixture, n: number, comparable = false) =>
  send("post", `/v1/reports/${f.reportId}${comparable ? `/comparables/${f.comparableId}` : ""}/photos`)
    .attach("file", image, "photo.jpg")
    .field("alt", `Photo ${n}`);
const photoPath = (f: Fixture, comparable = false) =>
  `/v1/reports/${f.reportId}${comparable ? `/comparables/${f.comparableId}/photos/${f.comparablePhotoId}` : `/photos/${f.photoId}`}`;

const RACERS: Record<string, Racer> = {
  "update a report": { op: "updateReport", run: (f, n) => send("patch", `/v1/reports/${f.reportId}`).send({ price: 300_000 + n }) },
  "publish a report": { op: "updateReport", run: (f) => send("patch", `/v1/reports/${f.reportId}`).send({ status: "published" }) },
  "delete the report again": { op: "deleteReport", run: (f) => send("delete", `/v1/reports/${f.reportId}`) },
  "create a showing": { op: "createShowing", run: (f, n) => send("post", "/v1/showings").send({ report_id: f.reportId, attendee_name: `Guest ${n}` }) },
  "update a showing": { op: "updateShowing", needs: "showingId", run: (f, n) => send("patch", `/v1/showings/${f.showingId}`).send({ attendee_name: `Guest ${n}` }) },
  "delete a showing": { op: "deleteShowing", needs: "showingId", run: (f) => send("delete", `/v1/showings/${f.showingId}`) },
  "create a comparable": { op: "createComparable", run: (f, n) => send("post", `/v1/reports/${f.reportId}/comparables`).send({ address: `${n} Comp Ave`, price: 1000 + n }) },
  "replace the comparables": {
    op: "replaceComparables",
    run: (f, n) => send("put", `/v1/reports/${f.reportId}/comparables`).send({ comparables: [{ address: `${n} Comp Ave` }, { address: `${n} Comp Blvd` }] }),
  },
  "update a comparable": { op: "updateComparable", needs: "comparableId", run: (f, n) => send("patch", `/v1/comparables/${f.comparableId}`).send({ price: 2000 + n }) },
  "delete a comparable": { op: "deleteComparable", needs: "comparableId", run: (f) => send("delete", `/v1/comparables/${f.comparableId}`) },
  "create an insight": { op: "createInsight", run: (f, n) => send("post", `/v1/reports/${f.reportId}/insights`).send({ body: `Insight ${n}` }) },
  "update an insight": { op: "updateInsight", needs: "insightId", run: (f, n) => send("patch", `/v1/insights/${f.insightId}`).send({ body: `Changed ${n}` }) },
  "delete an insight": { op: "deleteInsight", needs: "insightId", run: (f) => send("delete", `/v1/insights/${f.insightId}`) },
  "delete a social post": { op: "deleteSocialPost", needs: "postId", run: (f) => send("delete", `/v1/social-posts/${f.postId}`) },
  "import social posts (JSON)": {
    op: "importSocialPosts",
    run: (f, n) => send("post", `/v1/reports/${f.reportId}/social-posts/import`).send({ posts: [{ platform: "instagram", external_id: `race-${n}`, likes: n }] }),
  },
  "import social posts (CSV)": {
    op: "importSocialPosts",
    run: (f, n) => send("post", `/v1/reports/${f.reportId}/social-posts/import`).set("Content-Type", "text/csv").send(csv(n)),
  },
  "update existing social posts": {
    op: "importSocialPosts",
    needs: "postId",
    run: (f, n) => send("post", `/v1/reports/${f.reportId}/social-posts/import`).send({ posts: [{ platform: "x", external_id: "held", likes: 100 + n }] }),
  },
  "generate and save a summary": { op: "generateSummary", run: (f) => send("post", `/v1/reports/${f.reportId}/summary`).send({ length: "short" }) },
  "create a share link": { op: "createShareLink", run: (f, n) => send("post", `/v1/reports/${f.reportId}/share-links`).send({ label: `Link ${n}` }) },
  "revoke a share link": { op: "revokeShareLink", needs: "linkId", run: (f) => send("delete", `/v1/reports/${f.reportId}/share-links/${f.linkId}`) },
  "create a sign-in link": { op: "createSignInLink", needs: "showingId", run: (f, n) => send("post", `/v1/showings/${f.showingId}/sign-in-links`).send({ label: `Door ${n}` }) },
  "revoke a sign-in link": {
    op: "revokeSignInLink",
    needs: "signInLinkId",
    run: (f) => send("delete", `/v1/showings/${f.showingId}/sign-in-links/${f.signInLinkId}`),
  },
  "upload a photo": { op: "uploadReportPhoto", run: (f, n) => upload(f, n) },
  "update a photo": { op: "updateReportPhoto", needs: "photoId", run: (f, n) => send("patch", photoPath(f)).send({ alt: `Changed ${n}` }) },
  "delete a photo": { op: "deleteReportPhoto", needs: "photoId", run: (f) => send("delete", photoPath(f)) },
  "upload a comparable's photo": { op: "uploadComparablePhoto", needs: "comparableId", run: (f, n) => upload(f, n, true) },
  "update a comparable's photo": { op: "updateComparablePhoto", needs: "comparablePhotoId", run: (f, n) => send("patch", photoPath(f, true)).send({ position: n % 2 }) },
  "delete a comparable's photo": { op: "deleteComparablePhoto", needs: "comparablePhotoId", run: (f) => send("delete", photoPath(f, true)) },
};

/** Write operations that do not take a report (the rest of the document's writes must all be raced). */
const NOT_OF_A_REPORT = [
  "createReport",
  "createWebhook",
  "updateWebhook",
  "deleteWebhook",
  "rotateWebhookSecret",
  "testWebhook",
  "redeliverWebhook",
  "registerGraphQLDocuments",
  "eraseAttendee", // a person's contact data across the team's reports, by e-mail or phone
  "withdrawConsent", // a consent receipt, kept whatever happens to its showing or report
  "createCrmDestination",
  "updateCrmDestination",
  "deleteCrmDestination",
  "redeliverCrmDelivery",
];

/** Trials per racer; each sends the racer twice and the report's delete at once. */
const TRIALS = 6;

/** A report made through the API, and the item the racer needs stored directly (the race is what is tested). */
async function fixture(needs: Item | undefined, trial: number): Promise<Fixture> {
  const reportId: string = (await send("post", "/v1/reports").send({ address: `${trial} Race Street`, sqft: 1500 })).body.data.id;
  const data = { teamId: team.teamId, reportId };
  const made = async (row: Promise<{ id: string }>) => (await row).id;
  // A sign-in link belongs to a showing of the report.
  const showingId = needs === "showingId" || needs === "signInLinkId" ? await made(prisma.showing.create({ data })) : "";
  const comparableId = needs === "comparableId" || needs === "comparablePhotoId" ? await made(prisma.comparable.create({ data: { ...data, address: "1 Held Ave" } })) : "";
  const uploaded = async (comparable: boolean) => {
    const res = await upload({ reportId, comparableId } as Fixture, trial, comparable);
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  };
  return {
    reportId,
    showingId,
    comparableId,
    photoId: needs === "photoId" ? await uploaded(false) : "",
    comparablePhotoId: needs === "comparablePhotoId" ? await uploaded(true) : "",
    insightId: needs === "insightId" ? await made(prisma.agentInsight.create({ data: { ...data, author: "Dana Agent", body: "Held" } })) : "",
    postId: needs === "postId" ? await made(prisma.socialMediaPost.create({ data: { ...data, platform: "x", externalId: "held", likes: 1 } })) : "",
    linkId: needs === "linkId" ? await made(prisma.shareLink.create({ data: { ...data, tokenHash: randomUUID(), expiresAt: new Date(Date.now() + 86_400_000) } })) : "",
    signInLinkId:
      needs === "signInLinkId"
        ? await made(
            prisma.signInLink.create({
              data: { teamId: team.teamId, showingId, tokenHash: randomUUID(), tokenSealed: "held", formSecret: "held", expiresAt: new Date(Date.now() + 86_400_000) },
            }),
          )
        : "",
  };
}

/** Rows of any table that still point at the report. */
async function leftOver(reportId: string): Promise<number> {
  const where = { reportId };
  const counts = await Promise.all([
    prisma.showing.count({ where }),
    prisma.comparable.count({ where }),
    prisma.agentInsight.count({ where }),
    prisma.socialMediaPost.count({ where }),
    prisma.shareLink.count({ where }),
    prisma.photo.count({ where }),
    prisma.report.count({ where: { id: reportId } }),
  ]);
  return counts.reduce((a, b) => a + b, 0);
}

it("races every write route of the OpenAPI document that takes a report", async () => {
  const doc = (await request(t.app).get("/v1/openapi.json")).body as { paths: Record<string, Record<string, { operationId: string }>> };
  const writes = Object.values(doc.paths).flatMap((item) =>
    Object.entries(item)
      .filter(([method]) => ["post", "put", "patch", "delete"].includes(method))
      .map(([, op]) => op.operationId),
  );
  const raced = new Set(Object.values(RACERS).map((r) => r.op));
  expect(writes.filter((op) => !NOT_OF_A_REPORT.includes(op)).sort()).toEqual([...raced].sort());
});

describe.each(Object.entries(RACERS))("%s racing the report's delete", (_name, racer) => {
  it(`answers 2xx or 404 (never 5xx) in ${TRIALS} trials, and nothing is left pointing at the report`, async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const f = await fixture(racer.needs, trial);
      // The delete starts 0 to 5 ms after the racers, so it lands at a different point of their work each trial.
      const deleted = new Promise((wait) => setTimeout(wait, trial)).then(() => send("delete", `/v1/reports/${f.reportId}`));
      const answers = await Promise.all([racer.run(f, 2 * trial), deleted, racer.run(f, 2 * trial + 1)]);
      const wrong = answers.filter((res) => !(res.status < 300 || (res.status === 404 && / not found$/.test(res.body.error?.message))));
      expect(wrong.map((res) => ({ status: res.status, body: res.body }))).toEqual([]);
      expect(await leftOver(f.reportId)).toBe(0);
    }
  });
});
