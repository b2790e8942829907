// A photo's bytes made safe to show (docs/api.md "Photos"): decoded by sharp (libvips), turned upright by its EXIF
// orientation, resized to the rendition widths (never enlarged) and encoded again, so nothing of the upload but its
// pixels is kept: no EXIF (a phone's GPS position, camera, times), no XMP, IPTC or ICC profile, no comments. What
// cannot be shown safely is refused with a 400 naming the problem, before anything is decoded where it can be.
import { availableParallelism } from "node:os";
import type Sharp from "sharp";
import { badField } from "../../errors";

/**
 * sharp (libvips), loaded on the first photo: its module and native library took ~0.1 s of every process's start (and
 * every test file's) for the few requests that upload or convert a photo.
 */
export const sharp = (...args: Parameters<typeof Sharp>): Sharp.Sharp =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (see above)
  (require("sharp") as typeof Sharp)(...args);

/** The largest upload: 25 MiB. */
export const MAX_PHOTO_BYTES = 25 * 1024 * 1024;
/** The most pixels a photo may have (its width × height, read from its header before it is decoded). */
export const MAX_PHOTO_PIXELS = 50_000_000;
/** The widths of the stored renditions; an image narrower than one is not enlarged to it. */
export const RENDITION_WIDTHS = [480, 960, 1600] as const;

const ACCEPTED = new Set(["jpeg", "png", "webp"]);
const FILE = ["file"];

export interface Rendition {
  width: number;
  height: number;
  bytes: Buffer;
}
export interface ProcessedPhoto {
  /** The upright image's size (after its EXIF orientation). */
  width: number;
  height: number;
  /** image/jpeg, or image/webp when the image has transparency (JPEG has none). */
  contentType: "image/jpeg" | "image/webp";
  /** Narrowest first; at least one. */
  renditions: Rendition[];
}

/** Whether a PNG holds an animation (an acTL chunk before its first IDAT: APNG); libvips would show its first frame. */
export function isAnimatedPng(bytes: Uint8Array): boolean {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 8;
  while (at + 8 <= view.length) {
    const length = view.readUInt32BE(at);
    const type = view.toString("latin1", at + 4, at + 8);
    if (type === "acTL") return true;
    if (type === "IDAT" || type === "IEND") return false;
    at += 12 + length;
  }
  return false;
}

const refuse = (reason: string) => badField(FILE, reason);

/**
 * Photos worked on at once in one process. sharp runs each step on libuv's thread pool (4 threads by default), which
 * the rest of the process shares (DNS for webhooks, compression, crypto): uploads arriving together — one team's
 * twenty, say — take two threads at most and wait in line for them, and every other request keeps the other two.
 * And one core is left to everything else: on 2 cores a single photo at a time kept other teams' 99th percentile at
 * 10–21 ms during twenty uploads, against 41 ms with two (the uploads took 9 s instead of 6.4; BENCHMARKS "Photos").
 */
export const PHOTO_SLOTS = Math.max(1, Math.min(2, availableParallelism() - 1));
let busy = 0;
const waiting: Array<() => void> = [];

/** Runs `work` once one of PHOTO_SLOTS is free (first come, first served). */
async function inLine<T>(work: () => Promise<T>): Promise<T> {
  if (busy >= PHOTO_SLOTS) await new Promise<void>((resolve) => waiting.push(resolve));
  else busy++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else busy--;
  }
}

/** Whether the bytes start as a JPEG, PNG or WebP file does (to tell a damaged one from another kind of file). */
const looksAccepted = (b: Buffer): boolean =>
  (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) ||
  b.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10])) ||
  (b.toString("latin1", 0, 4) === "RIFF" && b.toString("latin1", 8, 12) === "WEBP");

/**
 * Checks and re-encodes an upload. Refusals (400, naming `file`): empty, over MAX_PHOTO_BYTES, not JPEG, PNG or WebP
 * (by its content, whatever its name or declared type), over MAX_PHOTO_PIXELS (sharp's limitInputPixels: refused
 * from the header, before a decompression bomb is decoded), animated, or not decodable.
 */
export async function processPhoto(bytes: Uint8Array): Promise<ProcessedPhoto> {
  if (bytes.byteLength === 0) throw refuse("must not be empty");
  if (bytes.byteLength > MAX_PHOTO_BYTES) throw refuse("must be at most 25 MB (26,214,400 bytes)");
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const options = { limitInputPixels: MAX_PHOTO_PIXELS, failOn: "error" as const, sequentialRead: true };
  let meta: Sharp.Metadata;
  try {
    meta = await sharp(input, options).metadata();
  } catch (err) {
    if (/pixel limit/i.test(String((err as Error)?.message))) throw refuse("must be at most 50 megapixels");
    throw refuse(looksAccepted(input) ? "could not be read as an image (damaged or incomplete)" : "must be a JPEG, PNG or WebP image");
  }
  if (!meta.format || !ACCEPTED.has(meta.format)) throw refuse("must be a JPEG, PNG or WebP image");
  if (!meta.width || !meta.height) throw refuse("could not be read as an image");
  if (meta.width * meta.height > MAX_PHOTO_PIXELS) throw refuse("must be at most 50 megapixels");
  if ((meta.pages ?? 1) > 1 || (meta.format === "png" && isAnimatedPng(input))) throw refuse("must not be animated");
  const contentType = meta.hasAlpha ? "image/webp" : "image/jpeg";
  // Orientations 5 to 8 turn the image a quarter: its upright width is its stored height.
  const upright = (meta.orientation ?? 1) >= 5 ? { width: meta.height, height: meta.width } : { width: meta.width, height: meta.height };
  const widths = [...new Set(RENDITION_WIDTHS.map((w) => Math.min(w, upright.width)))];
  try {
    // One decode, turned upright; each rendition is a clone. sharp writes no metadata unless asked (withMetadata).
    const base = sharp(input, options).rotate();
    // One rendition after another, and at most PHOTO_SLOTS photos at once in this process (see inLine).
    const renditions = await inLine(async () => {
      const made: Rendition[] = [];
      for (const width of widths) {
        const resized = base.clone().resize({ width, withoutEnlargement: true });
        const encoded = contentType === "image/jpeg" ? resized.jpeg({ quality: 82, mozjpeg: true }) : resized.webp({ quality: 82 });
        const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
        made.push({ width: info.width, height: info.height, bytes: data });
      }
      return made;
    });
    return { ...upright, contentType, renditions };
  } catch (err) {
    if (/pixel limit/i.test(String((err as Error)?.message))) throw refuse("must be at most 50 megapixels");
    throw refuse("could not be read as an image (damaged or incomplete)");
  }
}
