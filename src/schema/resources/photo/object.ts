// Photos of a report and of its comparables (docs/api.md "Photos"): upload (GraphQL multipart request, the `File`
// scalar; REST maps its multipart body to it), list, change (alt text, position) and delete, behind reports:read and
// reports:update and scoped to the key's team. Each gallery (the report's own photos, or one comparable's) is ordered
// by position 0, 1, … without gaps; the first is its cover. The encoded renditions go to the photo store
// (src/db/photo-store.ts); the public share page serves them (src/share/photos.ts).
import { GraphQLError } from "graphql";
import type { Context } from "../../../context";
import { prisma } from "../../../db";
import { photoStore } from "../../../db/photo-store";
import type { Prisma } from "../../../generated/prisma/client";
import { withEvents, type Tx } from "../../../webhooks/outbox";
import { builder } from "../../builder";
import { badField, badInput, notFound } from "../../errors";
import { checked, nonBlank } from "../../rules";
import { isUuid, teamIdOf } from "../../scope";
import { lockReport, orNotFound } from "../report-items";
import { REPORT_NOT_FOUND, reportIdOfTeam } from "../report/lookup";
import { MAX_PHOTO_BYTES, MAX_PHOTO_PIXELS, processPhoto, RENDITION_WIDTHS } from "./image";
import { needs } from "../../needs";

/** Photos a report may hold, its own and its comparables' together. */
export const MAX_PHOTOS_PER_REPORT = 40;
export const MAX_ALT_LENGTH = 500;
export const PHOTO_NOT_FOUND = "Photo not found";
export const COMPARABLE_NOT_FOUND = "Comparable not found";

/** The file name of a rendition in the store and in its public URL: `960.jpg`, `480.webp`. */
export const renditionName = (width: number, contentType: string): string => `${width}.${contentType === "image/webp" ? "webp" : "jpg"}`;

/** What a file sent in a multipart request is (the Fetch API's File, as graphql-yoga and undici give it). */
export interface UploadedFile {
  readonly size: number;
  readonly type: string;
  readonly name?: string;
  arrayBuffer(): Promise<ArrayBuffer>;
}
const isUploadedFile = (value: unknown): value is UploadedFile =>
  typeof value === "object" && value !== null && typeof (value as UploadedFile).arrayBuffer === "function" && typeof (value as UploadedFile).size === "number";

builder.scalarType("File", {
  description:
    "A file sent in a multipart request (the GraphQL multipart request spec: `operations`, `map` and the file parts); input only",
  specifiedByURL: "https://github.com/jaydenseric/graphql-multipart-request-spec",
  serialize: () => {
    throw new GraphQLError("File is an input type only");
  },
  parseValue: (value) => {
    if (!isUploadedFile(value)) throw new GraphQLError("must be a file sent as a part of a multipart request");
    return value;
  },
  parseLiteral: () => {
    throw new GraphQLError("must be a file sent as a part of a multipart request, not written in the document");
  },
});

builder.prismaObject("Photo", {
  description: `A photo of a report or of one of its comparables, stored re-encoded without any metadata at the widths ${RENDITION_WIDTHS.join(", ")} (never enlarged).`,
  fields: (t) => ({
    id: t.exposeID("id", { description: "The photo's id (a UUID)" }),
    reportId: t.exposeID("reportId", { description: "The report it belongs to" }),
    comparableId: t.exposeID("comparableId", { nullable: true, description: "The comparable it shows; null for a photo of the report's property" }),
    position: t.exposeInt("position", { description: "Its place in its gallery (the report's own photos, or one comparable's), from 0" }),
    cover: t.boolean({
      description: "Whether it is first by position in its gallery: the cover of the client's page and PDF, unless it is the report's agent photo or logo (the first other photo is then)",
      resolve: (photo) => photo.position === 0,
    }),
    alt: t.exposeString("alt", { description: "Its alternative text, read to people who cannot see it" }),
    width: t.exposeInt("width", { description: "The upright image's width in pixels, as uploaded" }),
    height: t.exposeInt("height", { description: "The upright image's height in pixels, as uploaded" }),
    contentType: t.exposeString("contentType", { description: "The renditions' type: image/jpeg, or image/webp for an image with transparency" }),
    widths: t.exposeIntList("widths", { description: "The widths of its renditions, narrowest first" }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was uploaded" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime", description: "When its alt text or position last changed" }),
  }),
});

const ALT = checked(nonBlank(MAX_ALT_LENGTH));
const POSITION_RULE = `0 to ${MAX_PHOTOS_PER_REPORT - 1}`;
const position = (value: number | null | undefined, path: string[]): number | undefined => {
  if (value === null || value === undefined) return undefined;
  if (value < 0 || value >= MAX_PHOTOS_PER_REPORT) throw badField(path, `must be ${POSITION_RULE}`);
  return value;
};

const UpdatePhotoInput = builder.inputType("UpdatePhotoInput", {
  description: "Only the fields given are changed.",
  fields: (t) => ({
    alt: t.string({ description: `Its alternative text (1 to ${MAX_ALT_LENGTH} characters)`, validate: ALT }),
    position: t.int({ description: `Its new place in its gallery, ${POSITION_RULE} (past the last: the last); the others move up or down` }),
  }),
});

type Gallery = { teamId: string; reportId: string; comparableId: string | null };

/**
 * The gallery the arguments name: the report of the key's team (404 otherwise) and, when given, its comparable (404
 * `Comparable not found`).
 */
async function gallery(ctx: Context, args: { reportId: unknown; comparableId?: unknown }): Promise<Gallery> {
  const teamId = teamIdOf(ctx);
  const reportId = await reportIdOfTeam(teamId, String(args.reportId));
  if (args.comparableId === null || args.comparableId === undefined) return { teamId, reportId, comparableId: null };
  const id = String(args.comparableId);
  const comparable = isUuid(id) ? await prisma.comparable.findFirst({ where: { id, reportId, teamId }, select: { id: true } }) : null;
  if (!comparable) throw notFound(COMPARABLE_NOT_FOUND);
  return { teamId, reportId, comparableId: comparable.id };
}

/** The photo's id when it is one (404 `Photo not found` otherwise). */
function photoId(args: { id: unknown }): string {
  const id = String(args.id);
  if (!isUuid(id)) throw notFound(PHOTO_NOT_FOUND);
  return id;
}

/** The gallery's photos in their order, and the place of photo `id` among them (404 `Photo not found` when not there). */
async function placeIn(tx: Tx, g: Gallery, id: string): Promise<{ order: Array<{ id: string; position: number }>; at: number }> {
  const order = await tx.photo.findMany({ where: inGallery(g), orderBy: [{ position: "asc" }, { createdAt: "asc" }], select: { id: true, position: true } });
  const at = order.findIndex((row) => row.id === id);
  if (at < 0) throw notFound(PHOTO_NOT_FOUND);
  return { order, at };
}

const inGallery = (g: Gallery): Prisma.PhotoWhereInput => ({ teamId: g.teamId, reportId: g.reportId, comparableId: g.comparableId });

/** Writes positions 0, 1, … in `order` (ids) for the rows whose position differs. */
async function renumber(tx: Tx, order: Array<{ id: string; position: number }>): Promise<void> {
  for (const [index, row] of order.entries()) {
    if (row.position !== index) await tx.photo.update({ where: { id: row.id }, data: { position: index }, select: { id: true } });
  }
}

/** Runs a change of a gallery holding its report's row (so changes of one report's photos take turns). */
const inTransaction = <T>(g: Gallery, fn: (tx: Tx) => Promise<T>) =>
  orNotFound(
    withEvents(async (tx) => {
      await lockReport(tx, g.reportId, g.teamId);
      if (g.comparableId && !(await tx.comparable.findFirst({ where: { id: g.comparableId, teamId: g.teamId }, select: { id: true } }))) {
        throw notFound(COMPARABLE_NOT_FOUND);
      }
      return fn(tx);
    }),
    REPORT_NOT_FOUND,
  );

builder.queryFields((t) => ({
  reportPhotos: t.prismaField({
    type: ["Photo"],
    ...needs("reports:read", `The photos of a report of the team (comparableId null: its own; else one comparable's), by position; at most ${MAX_PHOTOS_PER_REPORT}.`),
    args: {
      reportId: t.arg.id({ required: true, description: "The report's id" }),
      comparableId: t.arg.id({ description: "A comparable of the report: its photos instead of the report's own" }),
    },
    resolve: async (query, _root, args, ctx) => {
      const g = await gallery(ctx, args);
      return prisma.photo.findMany({ ...query, where: inGallery(g), orderBy: [{ position: "asc" }, { createdAt: "asc" }] });
    },
  }),
}));

builder.mutationFields((t) => ({
  uploadPhoto: t.prismaField({
    type: "Photo",
    ...needs(
      "reports:update",
      `Adds a photo to a report of the team, or to one of its comparables. The file: JPEG, PNG or WebP, at most ${MAX_PHOTO_BYTES} bytes (25 MB) and ` +
      `${MAX_PHOTO_PIXELS / 1e6} megapixels, not animated; it is turned upright by its EXIF orientation and stored re-encoded at the widths ` +
      `${RENDITION_WIDTHS.join(", ")} (never enlarged) with all metadata removed (no EXIF, GPS, XMP or ICC). A report holds at most ` +
      `${MAX_PHOTOS_PER_REPORT} photos, its comparables' included.`,
    ),
    args: {
      reportId: t.arg.id({ required: true, description: "The report's id" }),
      comparableId: t.arg.id({ description: "A comparable of the report: the photo shows it" }),
      file: t.arg({ type: "File", required: true, description: "The image (a part of the multipart request)" }),
      alt: t.arg.string({ required: true, description: `Its alternative text (1 to ${MAX_ALT_LENGTH} characters)`, validate: ALT }),
      position: t.arg.int({ description: `Its place in its gallery, ${POSITION_RULE} (0: the cover; default and past the last: the last)` }),
    },
    resolve: async (query, _root, args, ctx) => {
      const at = position(args.position, ["position"]);
      const g = await gallery(ctx, args);
      const { teamId } = g;
      const file = args.file as UploadedFile;
      if (file.size > MAX_PHOTO_BYTES) throw badField(["file"], "must be at most 25 MB (26,214,400 bytes)");
      // Decoded and encoded before the transaction: no row is held while the CPU works.
      const photo = await processPhoto(new Uint8Array(await file.arrayBuffer()));
      return inTransaction(g, async (tx) => {
        const held = await tx.photo.count({ where: { teamId, reportId: g.reportId } });
        if (held >= MAX_PHOTOS_PER_REPORT) throw badInput(`A report holds at most ${MAX_PHOTOS_PER_REPORT} photos (its comparables' included); delete one first`);
        const siblings = await tx.photo.count({ where: inGallery(g) });
        const place = Math.min(at ?? siblings, siblings);
        await tx.photo.updateMany({ where: { ...inGallery(g), position: { gte: place } }, data: { position: { increment: 1 } } });
        const row = await tx.photo.create({
          ...query,
          data: {
            teamId,
            reportId: g.reportId,
            comparableId: g.comparableId,
            position: place,
            alt: args.alt,
            width: photo.width,
            height: photo.height,
            contentType: photo.contentType,
            widths: photo.renditions.map((r) => r.width),
          },
        });
        const files = photo.renditions.map((r) => ({ name: renditionName(r.width, photo.contentType), contentType: photo.contentType, bytes: r.bytes }));
        await photoStore.put(tx, { id: row.id, teamId }, files);
        return row;
      });
    },
  }),
  updatePhoto: t.prismaField({
    type: "Photo",
    ...needs("reports:update", "Changes a photo's alt text or position (the others of its gallery move to make room)."),
    args: {
      reportId: t.arg.id({ required: true, description: "The report's id" }),
      comparableId: t.arg.id({ description: "The comparable the photo shows, when it is one of a comparable's" }),
      id: t.arg.id({ required: true, description: "The photo's id" }),
      input: t.arg({ type: UpdatePhotoInput, required: true, description: "The fields to change" }),
    },
    resolve: async (query, _root, args, ctx) => {
      const { alt, position: wanted } = args.input;
      if (alt === null) throw badField(["input", "alt"], "must not be null");
      const at = position(wanted, ["input", "position"]);
      const g = await gallery(ctx, args);
      const id = photoId(args);
      return inTransaction(g, async (tx) => {
        const { order, at: from } = await placeIn(tx, g, id);
        if (at !== undefined) {
          const [moved] = order.splice(from, 1);
          order.splice(Math.min(at, order.length), 0, moved);
          await renumber(tx, order);
        }
        return tx.photo.update({ ...query, where: { id }, data: { ...(alt !== undefined ? { alt } : {}), updatedAt: new Date() } });
      });
    },
  }),
  deletePhoto: t.id({
    ...needs("reports:update", "Deletes a photo and its renditions; the later ones of its gallery move up. Returns its id."),
    args: {
      reportId: t.arg.id({ required: true, description: "The report's id" }),
      comparableId: t.arg.id({ description: "The comparable the photo shows, when it is one of a comparable's" }),
      id: t.arg.id({ required: true, description: "The photo's id" }),
    },
    resolve: async (_root, args, ctx) => {
      const g = await gallery(ctx, args);
      const id = photoId(args);
      await inTransaction(g, async (tx) => {
        const { order, at } = await placeIn(tx, g, id);
        await photoStore.remove(tx, { id, teamId: g.teamId });
        await tx.photo.delete({ where: { id }, select: { id: true } });
        order.splice(at, 1);
        await renumber(tx, order);
      });
      return id;
    },
  }),
}));
