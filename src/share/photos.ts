// A share link's photos (docs/api.md "Photos"): the list the page shows, read through the schema with the link's
// read-only context; the cover of each comparable the page shows; and the encoded files served under the link at
// /r/<token>/photos/<photoId>-<width>.<jpg|webp>, only while the link opens its report (so a revoked or expired
// link hides them too) and only photos the page may show (a comparable's only while the report shows its comparables).
import type { Context } from "../context";
import { prisma } from "../db";
import { photoStore } from "../db/photo-store";
import { operation, run } from "../operations/run";
import { sharp } from "../schema/resources/photo/image";
import { renditionName } from "../schema/resources/photo/object";
import type { ActiveShareLink } from "../schema/resources/share-link/token";
import type { PdfPhoto } from "./pdf";
import type { ReportView } from "./view";

const PHOTOS = operation(`query SharePhotos($reportId: ID!) {
  reportPhotos(reportId: $reportId) { id alt width height contentType widths }
}`);

interface PhotoData {
  id: string;
  alt: string;
  width: number;
  height: number;
  contentType: string;
  widths: number[];
}

/** A photo as the page writes it: its smallest rendition as src, every rendition in srcset. */
export interface PagePhoto {
  id: string;
  alt: string;
  src: string;
  srcset: string;
  /** The intrinsic size of `src` (so the page keeps its place before it loads). */
  width: number;
  height: number;
  /** Its widest rendition (relative, as `src`): the preview image a texted link shows. */
  widest: string;
}

/** The report's own photos for its page, by position (the first is the cover); none when it has none. */
export async function pagePhotos(link: ActiveShareLink, token: string, context: Context): Promise<PagePhoto[]> {
  const { reportPhotos } = await run<{ reportPhotos: PhotoData[] }>(PHOTOS, { reportId: link.reportId }, context);
  return reportPhotos.map((p) => pagePhoto(p, token));
}

/** A photo as the page under `token` addresses it. */
function pagePhoto(p: PhotoData, token: string): PagePhoto {
  const href = (width: number) => `${token}/photos/${p.id}-${renditionName(width, p.contentType)}`;
  const smallest = p.widths[0];
  return {
    id: p.id,
    alt: p.alt,
    src: href(smallest),
    srcset: p.widths.map((w) => `${href(w)} ${w}w`).join(", "),
    width: smallest,
    height: Math.max(1, Math.round((p.height * smallest) / p.width)),
    widest: href(p.widths[p.widths.length - 1]),
  };
}

/** Each shown comparable's cover (its first photo), by comparable id: on the page beside its address, in the PDF in a grid. */
async function comparableCovers(reportId: string, teamId: string, comparableIds: string[]) {
  if (comparableIds.length === 0) return [];
  return prisma.photo.findMany({
    where: { reportId, teamId, comparableId: { in: comparableIds }, position: 0 },
    select: { id: true, comparableId: true, alt: true, width: true, height: true, contentType: true, widths: true },
  });
}

/** The covers of the comparables the page shows (`view`'s, so none when the report hides them), for its table. */
export async function pageComparablePhotos(link: ActiveShareLink, token: string, view: ReportView): Promise<Map<string, PagePhoto>> {
  const covers = await comparableCovers(link.reportId, link.teamId, view.valuation?.comparables.map((c) => c.id) ?? []);
  return new Map(covers.map((p) => [p.comparableId!, pagePhoto(p, token)]));
}

/** The covers of the comparables the PDF shows, captioned with their addresses, in the table's order. */
export async function pdfComparablePhotos(reportId: string, teamId: string, view: ReportView): Promise<PdfPhoto[]> {
  const shown = view.valuation?.comparables ?? [];
  const covers = new Map((await comparableCovers(reportId, teamId, shown.map((c) => c.id))).map((p) => [p.comparableId!, p]));
  const out: PdfPhoto[] = [];
  for (const c of shown) {
    const p = covers.get(c.id);
    const file = p && (await pdfFile(p, teamId));
    if (file) out.push({ ...file, alt: c.address });
  }
  return out;
}

/** /<token>/photos/<uuid>-<width>.<jpg|webp> under /r. */
export const PHOTO_PATH = /^\/([^/]+)\/photos\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-(\d{1,5})\.(jpg|webp)$/;

/** The file of a photo of the link's report at `name` (e.g. `960.jpg`), or null (unknown, hidden, another report's). */
export async function sharedPhotoFile(link: ActiveShareLink, photoId: string, name: string): Promise<{ contentType: string; bytes: Buffer } | null> {
  const photo = await prisma.photo.findFirst({
    where: { id: photoId, reportId: link.reportId, teamId: link.teamId },
    select: { comparableId: true, report: { select: { showComps: true } } },
  });
  if (!photo || (photo.comparableId !== null && !photo.report.showComps)) return null;
  return photoStore.get({ id: photoId, teamId: link.teamId }, name);
}

/** The widest rendition the PDF draws: sharp enough on paper, and a 40-photo PDF stays a few megabytes. */
const PDF_WIDTH = 960;

/**
 * The report's own photos for its PDF, read with `context` (the link's, or the key's: reports:read): each one's
 * rendition up to PDF_WIDTH wide, a WebP one (pdfkit draws JPEG and PNG only) as PNG.
 */
export async function pdfPhotos(reportId: string, teamId: string, context: Context): Promise<PdfPhoto[]> {
  const { reportPhotos } = await run<{ reportPhotos: PhotoData[] }>(PHOTOS, { reportId }, context);
  const out: PdfPhoto[] = [];
  for (const p of reportPhotos) {
    const file = await pdfFile(p, teamId);
    if (file) out.push(file); // else deleted meanwhile
  }
  return out;
}

/** A photo's rendition up to PDF_WIDTH wide as pdfkit draws it (a WebP one as PNG); null when it is gone. */
async function pdfFile(p: PhotoData, teamId: string): Promise<PdfPhoto | null> {
  const w = [...p.widths].reverse().find((x) => x <= PDF_WIDTH) ?? p.widths[0];
  const file = await photoStore.get({ id: p.id, teamId }, renditionName(w, p.contentType));
  if (!file) return null;
  const bytes = p.contentType === "image/webp" ? await sharp(file.bytes).png().toBuffer() : file.bytes;
  return { id: p.id, alt: p.alt, bytes, width: w, height: Math.max(1, Math.round((p.height * w) / p.width)) };
}
