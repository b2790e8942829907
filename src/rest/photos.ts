// Photos of a report and of its comparables over REST (docs/api.md "Photos"): the multipart upload becomes the
// GraphQL mutation uploadPhoto with its file as a `File` variable, as a GraphQL multipart request would give it; the
// list, change and delete are their GraphQL fields. Every rule (formats, sizes, pixels, the 40 photos, positions,
// permissions) is the schema's (src/schema/resources/photo).
import type { Request, Response } from "express";
import type { Context } from "../context";
import { photoStore } from "../db/photo-store";
import Busboy, { type BusboyInstance } from "@fastify/busboy";
import { z } from "zod";
import { UPLOAD_LIMIT, uploadBody } from "../http/bodies";
import { MAX_PHOTO_BYTES, MAX_PHOTO_PIXELS, RENDITION_WIDTHS } from "../schema/resources/photo/image";
import { MAX_ALT_LENGTH, MAX_PHOTOS_PER_REPORT, renditionName } from "../schema/resources/photo/object";
import { operation, RestError, runRoot } from "./graphql";
import { bodyObject, queryInt } from "./input";
import { bodyToInput, inputNames, inputShape, objectFragment } from "./object-shapes";
import type { RestRoute } from "./route";

const PHOTO = objectFragment("Photo", "RestPhoto");
const LIST = operation(`query RestPhotos($reportId: ID!, $comparableId: ID) {
  reportPhotos(reportId: $reportId, comparableId: $comparableId) { ...RestPhoto }
} ${PHOTO.fragment}`);
const UPLOAD = operation(`mutation RestUploadPhoto($reportId: ID!, $comparableId: ID, $file: File!, $alt: String!, $position: Int) {
  uploadPhoto(reportId: $reportId, comparableId: $comparableId, file: $file, alt: $alt, position: $position) { ...RestPhoto }
} ${PHOTO.fragment}`);
const UPDATE = operation(`mutation RestUpdatePhoto($reportId: ID!, $comparableId: ID, $id: ID!, $input: UpdatePhotoInput!) {
  updatePhoto(reportId: $reportId, comparableId: $comparableId, id: $id, input: $input) { ...RestPhoto }
} ${PHOTO.fragment}`);
const DELETE = operation(`mutation RestDeletePhoto($reportId: ID!, $comparableId: ID, $id: ID!) {
  deletePhoto(reportId: $reportId, comparableId: $comparableId, id: $id)
}`);

const UPDATE_INPUT = inputNames("UpdatePhotoInput");
const position = z.int().min(0).max(MAX_PHOTOS_PER_REPORT - 1);
const alt = z.string().min(1).max(MAX_ALT_LENGTH);
const updateBody = inputShape("UpdatePhotoInput", { types: { alt, position }, examples: { alt: "The kitchen, facing the garden", position: 0 } });
const uploadForm = z.object({
  file: z.string().meta({ format: "binary", description: `JPEG, PNG or WebP; at most ${MAX_PHOTO_BYTES} bytes (25 MB) and ${MAX_PHOTO_PIXELS / 1e6} megapixels; not animated` }),
  alt: alt.meta({ description: `Its alternative text (1 to ${MAX_ALT_LENGTH} characters)`, example: "The house from the street" }),
  position: position.optional().meta({ description: "Its place in its gallery (0: the cover); default and past the last: the last" }),
});

/** At most this many parts are read from an upload (a file, its alt text and position, and room for mistakes). */
const MAX_PARTS = 10;

/**
 * The multipart body's parts (read as bytes by uploadBody), as the Fetch API's FormData; a 400 when it is not
 * multipart/form-data. Parsed by busboy, which holds the event loop ~0.7 ms per 6 MB photo where the Fetch API's own
 * parser held it ~15 ms (twenty uploads arriving together: 300 ms of other requests' time; BENCHMARKS "Photos").
 */
function formOf(req: Request): Promise<FormData> {
  if (!Buffer.isBuffer(req.body)) throw new RestError(400, "file is required: send a multipart/form-data body with the image as its part named file");
  const invalid = new RestError(400, "Request body is not valid multipart/form-data");
  const body = req.body;
  return new Promise((resolve, reject) => {
    const form = new FormData();
    let parser: BusboyInstance;
    try {
      parser = Busboy({ headers: { "content-type": String(req.headers["content-type"]) }, limits: { parts: MAX_PARTS, fileSize: UPLOAD_LIMIT } });
    } catch {
      return reject(invalid); // no boundary, or not multipart
    }
    const files: Promise<void>[] = [];
    parser.on("field", (name, value) => form.append(name, value));
    parser.on("file", (name, stream, filename, _encoding, mimeType) => {
      const chunks: Buffer<ArrayBuffer>[] = [];
      stream.on("data", (chunk: Buffer<ArrayBuffer>) => chunks.push(chunk));
      files.push(new Promise((done) => stream.on("end", () => done(form.append(name, new File(chunks, filename, { type: mimeType }))))));
    });
    parser.on("error", () => reject(invalid));
    parser.on("finish", () => void Promise.all(files).then(() => resolve(form)));
    parser.end(body);
  });
}

/** A text part given once, or undefined; a file where text goes is a 400. */
function textPart(form: FormData, name: string): string | undefined {
  const values = form.getAll(name);
  if (values.length === 0) return undefined;
  if (values.length > 1 || typeof values[0] !== "string") throw new RestError(400, `${name} must be given once, as text`);
  return values[0];
}

async function upload(req: Request, context: never, comparableId: string | null) {
  const form = await formOf(req);
  const files = form.getAll("file");
  if (files.length === 0) throw new RestError(400, "file is required: the image as the multipart part named file");
  if (files.length > 1 || typeof files[0] === "string") throw new RestError(400, "file must be one file part (the image)");
  const altText = textPart(form, "alt");
  if (altText === undefined) throw new RestError(400, "alt is required: the photo's alternative text");
  const place = textPart(form, "position");
  if (place !== undefined && !/^(?:0|[1-9]\d{0,8})$/.test(place)) throw new RestError(400, "position must be an integer");
  const variables = { reportId: req.params.reportId, comparableId, file: files[0], alt: altText, position: place === undefined ? null : Number(place) };
  return runRoot(UPLOAD, variables, context);
}

const tag = "Photos";
const photoParams = (comparable: boolean) =>
  z.object({
    reportId: z.string().meta({ description: "Report uuid" }),
    ...(comparable ? { comparableId: z.string().meta({ description: "The comparable's uuid" }) } : {}),
  });
const onePhotoParams = (comparable: boolean) => photoParams(comparable).extend({ photoId: z.string().meta({ description: "The photo's uuid" }) });

const imageQuery = z.object({
  width: z.int().min(1).max(10_000).optional().meta({ description: `The width wanted: the narrowest rendition at least this wide (${RENDITION_WIDTHS.join(", ")}, never wider than the original), else the widest; default the narrowest` }),
});

/**
 * One rendition of a photo for a key that may read it (the dashboard's thumbnails; the public page serves them under
 * its share token instead): found through the gallery's GraphQL list, so the same permissions hold.
 */
async function sendImage(req: Request, res: Response, comparableId: string | null): Promise<void> {
  const photos = await runRoot<Array<{ id: string; widths: number[]; content_type: string }>>(LIST, { reportId: req.params.reportId, comparableId }, res.locals.context);
  const photo = photos.find((p) => p.id === req.params.photoId);
  if (!photo) throw new RestError(404, "Photo not found");
  const wanted = queryInt(req, "width");
  if (wanted !== undefined && (wanted < 1 || wanted > 10_000)) throw new RestError(400, "width must be from 1 to 10000");
  const width = photo.widths.find((w) => w >= (wanted ?? 0)) ?? photo.widths[photo.widths.length - 1];
  const file = await photoStore.get({ id: photo.id, teamId: (res.locals.context as Context).viewer!.teamId }, renditionName(width, photo.content_type));
  if (!file) throw new RestError(404, "Photo not found"); // deleted meanwhile
  res.setHeader("Cache-Control", "private, max-age=600");
  res.type(file.contentType).send(file.bytes);
}

/** The five routes of one gallery: the report's own photos, or a comparable's. */
function galleryRoutes(comparable: boolean): RestRoute[] {
  const base = comparable ? "/v1/reports/{reportId}/comparables/{comparableId}/photos" : "/v1/reports/{reportId}/photos";
  const of = comparable ? "a comparable of a report" : "a report";
  const op = comparable ? "ComparablePhoto" : "ReportPhoto";
  const comparableOf = (req: Request) => (comparable ? String(req.params.comparableId) : null);
  return [
    {
      method: "get",
      path: base,
      operationId: `list${op}s`,
      tag,
      summary: (needs) => `The photos of ${of}, by position; the first is the cover (needs ${needs})`,
      operations: [LIST],
      params: photoParams(comparable),
      answer: { data: z.array(PHOTO.schema) },
      responseDescription: `The photos (at most ${MAX_PHOTOS_PER_REPORT})`,
      run: (req, res) => runRoot(LIST, { reportId: req.params.reportId, comparableId: comparableOf(req) }, res.locals.context),
    },
    {
      method: "post",
      path: base,
      operationId: `upload${op}`,
      tag,
      summary: (needs) => `Upload a photo of ${of} (multipart/form-data: file, alt, position; needs ${needs})`,
      description:
        `JPEG, PNG or WebP, at most 25 MB and ${MAX_PHOTO_PIXELS / 1e6} megapixels, not animated; ${MAX_PHOTOS_PER_REPORT} photos per report, its comparables' included. ` +
        `Stored turned upright and re-encoded at the widths ${RENDITION_WIDTHS.join(", ")} (never enlarged) with all metadata removed (EXIF, GPS, XMP, ICC). ` +
        "Each refusal is a 400 naming the problem.",
      operations: [UPLOAD],
      params: photoParams(comparable),
      multipartBody: uploadForm,
      parsers: [uploadBody],
      status: 201,
      answer: { data: PHOTO.schema },
      message: "Photo uploaded",
      responseDescription: "The photo",
      run: (req, res) => upload(req, res.locals.context as never, comparableOf(req)),
    },
    {
      method: "patch",
      path: `${base}/{photoId}`,
      operationId: `update${op}`,
      tag,
      summary: (needs) => `Change a photo's alt text or position; the others of its gallery move to make room (needs ${needs})`,
      operations: [UPDATE],
      params: onePhotoParams(comparable),
      body: updateBody,
      answer: { data: PHOTO.schema },
      message: "Photo updated",
      responseDescription: "The photo",
      run: (req, res) =>
        runRoot(UPDATE, { reportId: req.params.reportId, comparableId: comparableOf(req), id: req.params.photoId, input: bodyToInput(UPDATE_INPUT, bodyObject(req)) }, res.locals.context),
    },
    {
      method: "get",
      path: `${base}/{photoId}/image`,
      operationId: `get${op}Image`,
      tag,
      summary: (needs) => `One rendition of a photo, as JPEG or WebP like the photo's content_type, for a key (needs ${needs})`,
      operations: [LIST],
      params: onePhotoParams(comparable),
      query: imageQuery,
      answer: "message",
      binary: "image/*",
      responseDescription: "The image",
      run: async (req, res) => void (await sendImage(req, res, comparableOf(req))),
    },
    {
      method: "delete",
      path: `${base}/{photoId}`,
      operationId: `delete${op}`,
      tag,
      summary: (needs) => `Delete a photo and its renditions; the later ones move up (needs ${needs})`,
      operations: [DELETE],
      params: onePhotoParams(comparable),
      answer: "message",
      message: "Photo deleted",
      responseDescription: "Deleted",
      run: async (req, res) => void (await runRoot(DELETE, { reportId: req.params.reportId, comparableId: comparableOf(req), id: req.params.photoId }, res.locals.context)),
    },
  ];
}

export const photoRoutes: RestRoute[] = [...galleryRoutes(false), ...galleryRoutes(true)];
