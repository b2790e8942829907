// What share links and sign-in links have in common: a public page at a secret token, made with an expiry and
// answered once with the token (only its SHA-256 is kept).
import type { ObjectFieldThunk } from "@pothos/core";
import type { Types } from "../builder";
import { badField, notFound } from "../errors";

const DAY_MS = 24 * 60 * 60 * 1000;

/** How long a link lives when no expiry is given, and the longest it may have, in days. */
export interface LinkLife {
  defaultDays: number;
  maxDays: number;
}

/** The expiry of a new link: `given` when it is in the future and within `maxDays`, else a 400 naming it. */
export function linkExpiry(given: Date | null | undefined, now: Date, { defaultDays, maxDays }: LinkLife): Date {
  if (given == null) return new Date(now.getTime() + defaultDays * DAY_MS);
  if (given.getTime() <= now.getTime()) throw badField(["input", "expiresAt"], "must be in the future");
  if (given.getTime() > now.getTime() + maxDays * DAY_MS) throw badField(["input", "expiresAt"], `must be at most ${maxDays} days ahead`);
  return given;
}

/** The answer of a link's creation, before its fields are resolved: the new link's id and its token. */
export interface CreatedLink {
  link: { id: string };
  token: string;
}

/**
 * The fields `link` and `token` of the answer to a link's creation: the link read again (`find`, with the query's
 * selection), a 404 with `gone` when it was deleted since it was made (with its report or showing).
 */
export function linkAndToken<Model extends "ShareLink" | "SignInLink", Shape extends CreatedLink>(
  model: Model,
  find: (query: { select?: object; include?: object }, id: string) => Promise<Types["PrismaTypes"][Model]["Shape"] | null>,
  gone: string,
) {
  const link: ObjectFieldThunk<Types, Shape> = (t) =>
    t.prismaField({
      type: model as "ShareLink",
      description: "The link",
      resolve: async (query, parent) => {
        const found = await find(query, parent.link.id);
        if (!found) throw notFound(gone);
        return found as never;
      },
    });
  return { link, token: ["String", "The link's secret: 43 characters of base64url"] as const };
}
