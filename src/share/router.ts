// The public pages of share links (docs/api.md "Share links"): GET /r/<token> (HTML) and
// GET /r/<token>.pdf, answered without a key. The token is checked against the database on every request (no cache:
// a revoked or expired link answers 404 at once on every process). Each client address may make
// RATE_LIMIT_ANONYMOUS requests an hour here, like callers without a valid key, so the pages (a PDF costs some
// CPU) cannot be used to wear the service down or to guess tokens quickly. A visit counts into the report's and the
// link's views_count once per visitor address, link and clock hour, so a reload loop does not inflate it. A preview
// token (the agent's look before sending, src/schema/resources/share-link/preview.ts) opens the same page and PDF,
// marked as a preview, and counts nothing.
import { createHash } from "node:crypto";
import { Router, type NextFunction, type Request, type Response } from "express";
import { setRateLimitHeaders } from "../auth/middleware";
import { applyLimit, type RateLimiter } from "../auth/rate-limit";
import { config } from "../config";
import type { Context } from "../context";
import { RestError } from "../operations/run";
import { recordEvent, withEvents } from "../webhooks/outbox";
import { isPreviewToken, openPreviewToken } from "../schema/resources/share-link/preview";
import { activeShareLink, type ActiveShareLink } from "../schema/resources/share-link/token";
import { signInPagesRouter } from "./sign-in-router";
import { messagePage, reportPage, type Page } from "./page";
import { reportPdf } from "./pdf";
import { loadReport, pdfFileName, reportView } from "./view";
import { pageComparablePhotos, pagePhotos, pdfComparablePhotos, pdfPhotos, PHOTO_PATH, sharedPhotoFile } from "./photos";

/** Photo requests an address may make per page request it may make (a page shows up to 40 photos, at most 3 files each). */
const PHOTO_REQUESTS_PER_PAGE = 40;

/** What a link may read: its report and the report's collections, nothing of the team's keys, webhooks or team. */
const LINK_PERMISSIONS = { reports: ["read"], comparables: ["read"], showings: ["read"], social_media: ["read"], ai_insights: ["read"] } as const;

/** The context a link's report is read with: its team, read permissions only (the document names the one report). */
export const linkContext = (link: ActiveShareLink, requestId?: string): Context => ({
  viewer: { keyId: `share-link:${link.id}`, keyPrefix: "share-link", teamId: link.teamId, permissions: structuredClone(LINK_PERMISSIONS) as never, tier: "standard" },
  rateLimit: null,
  requestId,
});

function sendPage(res: Response, status: number, page: Page): void {
  res.status(status);
  res.setHeader("Content-Security-Policy", page.policy);
  res.type("html").send(page.html);
}

const NOT_FOUND = messagePage("Report not found", "This link does not open a report. It may have expired or been withdrawn; ask the agent who sent it for a new one.");

/**
 * Counts the visit into the report's and the link's views_count when it is this visitor's first to this link in the
 * clock hour, and records share_link.viewed (docs/api.md "Share links") when it is the link's first visit or its
 * first on a later UTC day than the last one: "your client opened it", once a day at most, in the same transaction.
 */
async function countView(limiter: RateLimiter, link: ActiveShareLink, address: string): Promise<void> {
  const visitor = createHash("sha256").update(address).digest("base64url").slice(0, 22);
  const { count } = await limiter.hit(`share-view:${link.id}:${visitor}`);
  if (count !== 1) return;
  await withEvents(async (tx) => {
    await tx.$executeRaw`UPDATE reports SET views_count = views_count + 1 WHERE id = ${link.reportId}::uuid AND team_id = ${link.teamId}::uuid`;
    // The row is locked by the UPDATE, so of two first visits of a day only one sees the day change.
    const [row] = await tx.$queryRaw<Array<{ before: Date | null; viewed_at: Date; views_count: number; label: string | null }>>`
      WITH old AS (SELECT last_viewed_at FROM share_links WHERE id = ${link.id}::uuid FOR UPDATE)
      UPDATE share_links s SET views_count = s.views_count + 1, last_viewed_at = now()
      FROM old WHERE s.id = ${link.id}::uuid
      RETURNING old.last_viewed_at AS before, s.last_viewed_at AS viewed_at, s.views_count, s.label`;
    if (!row) return; // revoked and deleted with its report meanwhile
    const utcDay = (d: Date) => d.toISOString().slice(0, 10);
    if (row.before !== null && utcDay(row.before) === utcDay(row.viewed_at)) return;
    await recordEvent(tx, link.teamId, "share_link.viewed", {
      link_id: link.id,
      report_id: link.reportId,
      label: row.label,
      first_view: row.before === null,
      views_count: row.views_count,
      viewed_at: row.viewed_at.toISOString(),
    });
  });
}

/** The link's report as the client may see it, or null when it is gone (deleted meanwhile). */
async function viewOf(link: ActiveShareLink, requestId?: string) {
  try {
    return reportView(await loadReport(link.reportId, linkContext(link, requestId)));
  } catch (err) {
    if (err instanceof RestError && err.status === 404) return null;
    throw err;
  }
}

/**
 * What a token opens: a share link (its visits counted as the client's), or a preview for the agent (counted nowhere;
 * `previewUntil` says until when, as its page shows it: "12:04 UTC").
 */
async function openToken(token: string): Promise<{ link: ActiveShareLink; previewUntil?: string } | null> {
  if (!isPreviewToken(token)) {
    const link = await activeShareLink(token);
    return link && { link };
  }
  const preview = openPreviewToken(token);
  return preview && { link: preview, previewUntil: `${preview.expiresAt.toISOString().slice(11, 16)} UTC` };
}

export function sharePagesRouter(limiter: RateLimiter): Router {
  const router = Router();
  // The other public pages answered without a key: /s/<token>, an open house's sign-in form (its own bounds).
  router.use(signInPagesRouter(limiter));
  router.use("/r", (req: Request, res: Response, next: NextFunction) => {
    res.setHeader("X-Robots-Tag", "noindex, nofollow");
    res.setHeader("Cache-Control", "no-store");
    answer(req, res).catch(next);
  });

  async function answer(req: Request, res: Response): Promise<void> {
    const address = req.ip ?? "unknown";
    // A page's photos are requests too: they count in a bucket of their own, PHOTO_REQUESTS_PER_PAGE per page allowed.
    const isPhoto = PHOTO_PATH.test(req.path);
    const limit = isPhoto
      ? applyLimit(await limiter.hit(`share-photo-ip:${address}`), config.RATE_LIMIT_ANONYMOUS * PHOTO_REQUESTS_PER_PAGE)
      : applyLimit(await limiter.hit(`share-ip:${address}`), config.RATE_LIMIT_ANONYMOUS);
    setRateLimitHeaders(res, limit);
    if (limit.exceeded) return sendPage(res, 429, messagePage("Too many requests", "Too many requests from your address. Please try again later."));
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.setHeader("Allow", "GET, HEAD");
      return sendPage(res, 405, messagePage("Method not allowed", "This page can only be read."));
    }
    const photo = PHOTO_PATH.exec(req.path);
    if (photo) return sendPhoto(req, res, photo);
    const match = /^\/([^/]+?)(\.pdf)?$/.exec(req.path);
    const opened = match ? await openToken(match[1]) : null;
    const link = opened?.link;
    const view = link ? await viewOf(link, req.id) : null;
    if (!link || !view) return sendPage(res, 404, NOT_FOUND);
    if (!opened.previewUntil) await countView(limiter, link, address);
    if (match![2]) {
      res.type("application/pdf").setHeader("Content-Disposition", `inline; filename="${pdfFileName(view)}"`);
      const [photos, comparables] = await Promise.all([pdfPhotos(link.reportId, link.teamId, linkContext(link)), pdfComparablePhotos(link.reportId, link.teamId, view)]);
      return void res.send(await reportPdf(view, photos, comparables));
    }
    const [photos, comparablePhotos] = await Promise.all([pagePhotos(link, match![1], linkContext(link)), pageComparablePhotos(link, match![1], view)]);
    const origin = `${req.protocol}://${req.get("host")}${req.baseUrl}/`;
    sendPage(res, 200, reportPage({ ...view, pdfHref: `${match![1]}.pdf`, photos, comparablePhotos, origin, previewUntil: opened.previewUntil }));
  }

  /**
   * One rendition of a photo of the link's report, while the link opens it (checked on every request, as the page
   * is). Cached by the browser only (private) and briefly, revalidated by its ETag: a revoked link's photos stop
   * answering at the next revalidation. No view is counted.
   */
  async function sendPhoto(req: Request, res: Response, [, token, photoId, width, extension]: RegExpExecArray): Promise<void> {
    const link = (await openToken(token))?.link;
    const file = link ? await sharedPhotoFile(link, photoId, `${width}.${extension}`) : null;
    if (!file) return sendPage(res, 404, messagePage("Photo not found", "This photo is not available. The link may have expired or been withdrawn."));
    const etag = `"${photoId}-${width}"`;
    res.setHeader("Cache-Control", "private, max-age=600");
    res.setHeader("ETag", etag);
    res.removeHeader("X-Robots-Tag");
    res.setHeader("X-Robots-Tag", "noindex");
    if (req.headers["if-none-match"] === etag) return void res.status(304).end();
    res.type(file.contentType).send(file.bytes);
  }
  return router;
}
