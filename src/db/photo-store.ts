// Where a photo's encoded renditions are kept (docs/api.md "Photos"). One small interface, so another store (an
// S3-compatible bucket) can take the bytes later without the schema or the pages changing; the one implementation
// today keeps them in the database, in photo_files (bytea), beside the photos table that describes them.
import type { Prisma } from "../generated/prisma/client";
import { prisma } from "./index";

/** A stored file of a photo, named by the photo: `960.jpg`. */
export interface PhotoFile {
  name: string;
  contentType: string;
  bytes: Buffer;
}

export interface PhotoStore {
  /**
   * Stores a photo's files. `tx` is the transaction creating the photo's row: a store that is the database writes in
   * it (both commit or neither); another store writes at once (a rolled-back photo leaves files no row names).
   */
  put(tx: Prisma.TransactionClient, photo: { id: string; teamId: string }, files: PhotoFile[]): Promise<void>;
  /** One file of a photo of `teamId`, or null. */
  get(photo: { id: string; teamId: string }, name: string): Promise<{ contentType: string; bytes: Buffer } | null>;
  /** Removes a photo's files (in `tx` for the database; its rows also go with the photo's by cascade). */
  remove(tx: Prisma.TransactionClient, photo: { id: string; teamId: string }): Promise<void>;
}

/** The files in PostgreSQL (or PGlite): one row per rendition. */
export const databasePhotoStore: PhotoStore = {
  async put(tx, photo, files) {
    await tx.photoFile.createMany({
      data: files.map((file) => ({ photoId: photo.id, teamId: photo.teamId, name: file.name, contentType: file.contentType, bytes: new Uint8Array(file.bytes) })),
    });
  },
  async get(photo, name) {
    const file = await prisma.photoFile.findFirst({ where: { photoId: photo.id, teamId: photo.teamId, name }, select: { contentType: true, bytes: true } });
    return file ? { contentType: file.contentType, bytes: Buffer.from(file.bytes) } : null;
  },
  async remove(tx, photo) {
    await tx.photoFile.deleteMany({ where: { photoId: photo.id, teamId: photo.teamId } });
  },
};

/** The store in use. */
export const photoStore: PhotoStore = databasePhotoStore;
