// API keys: the key record (never the secret), and key management for keys holding api_keys permissions. Every
// change is recorded in the audit log by its own transaction (src/audit/log.ts).
import { z } from "zod";
import { createApiKey, KeyLimitReached, KeyNotRollable, revokeApiKey, rollApiKey, type RollOverlap } from "../../auth/api-keys";
import { rateKey } from "../../auth/keys";
import { applyLimit } from "../../auth/rate-limit";
import { hourStart, hourlyCounts } from "../../auth/usage";
import { firstMissing, parsePermissions, TEAM_FULL_ACCESS, type Permissions } from "../../auth/permissions";
import { TIERS, tierLimit } from "../../auth/tiers";
import type { Context } from "../../context";
import { prisma } from "../../db";
import { liveBus } from "../../live/bus";
import { builder } from "../builder";
import { pointsBudget, pointsKey, READ_COST_SETTINGS } from "../read-cost";
import { badInput, notFound, permissionDenied } from "../errors";
import { intBetween } from "../rules";
import { isUuid, teamIdOf, viewerOf } from "../scope";
import { needs } from "../needs";
import { valueObject } from "../value-object";

const KeyQuota = valueObject<{ limit: number; remaining: number; resetsAt: number }>("ApiKeyQuota", "A key's rate limit in the current clock hour (UTC).", {
  limit: ["Int", "Requests allowed per clock hour (UTC)"],
  remaining: ["Int", "Requests left in this hour"],
  resetsAt: (t) => t.field({ type: "DateTime", description: "When the hour's budget starts anew", resolve: (r) => new Date(r.resetsAt * 1000) }),
});

const KeyPoints = valueObject<{ limit: number; used: number; resetsAt: number }>("ApiKeyPoints", "A key's read-cost points in the current clock hour (UTC): docs/api.md \"Read cost\".", {
  limit: ["Int", "Points per clock hour (UTC) of the key's tier"],
  used: ["Int", "Points charged this hour (past the limit in measure mode)"],
  remaining: (t) => t.int({ description: "Points left this hour", resolve: (p) => Math.max(0, p.limit - p.used) }),
  resetsAt: (t) => t.field({ type: "DateTime", description: "When the hour's points start anew", resolve: (p) => new Date(p.resetsAt * 1000) }),
  mode: (t) => t.string({ description: "measure (shown and counted, never refused) or enforce (429 THROTTLED past the limit)", resolve: () => READ_COST_SETTINGS.READ_COST_MODE }),
});

type RateLimiter = NonNullable<Context["rateLimiter"]>;

/**
 * The options of an ApiKey field that reads the key's counters of this clock hour from the rate limiter (`read`
 * gets the key's budget and tier): null when this server has none to read.
 */
function inThisHour<T>(what: string, read: (limiter: RateLimiter, budget: string, tier: string) => Promise<T>) {
  return {
    nullable: true as const,
    ...needs("api_keys:read", `${what} in this clock hour (null when this server cannot tell).`),
    select: { id: true, budgetKeyId: true, rateLimitTier: true } as const,
    resolve: (key: { id: string; budgetKeyId: string | null; rateLimitTier: string }, _args: object, ctx: Context) =>
      ctx.rateLimiter ? read(ctx.rateLimiter, rateKey({ id: key.id, budget_key_id: key.budgetKeyId }), key.rateLimitTier) : null,
  };
}

builder.prismaObject("ApiKey", {
  description: "An API key of the team (never the key itself: only its prefix).",
  fields: (t) => ({
    id: t.exposeID("id", { description: "The key's id (a UUID)" }),
    name: t.exposeString("name", { description: "The key's name" }),
    description: t.exposeString("description", { nullable: true, description: "What the key is for" }),
    prefix: t.exposeString("prefix", { description: "The first 16 characters of the key" }),
    permissions: t.expose("permissions", { type: "JSON", description: "resource → actions" }),
    rateLimitTier: t.exposeString("rateLimitTier", { description: "Rate-limit tier: free, standard, pro or enterprise" }),
    expiresAt: t.expose("expiresAt", { type: "DateTime", nullable: true, description: "When the key stops working (null: never)" }),
    revokedAt: t.expose("revokedAt", { type: "DateTime", nullable: true, description: "When the key was revoked (null: it was not)" }),
    lastUsedAt: t.expose("lastUsedAt", { type: "DateTime", nullable: true, description: "Last use, within a minute" }),
    lastUsedIp: t.exposeString("lastUsedIp", { nullable: true, description: "The client address of the last use (written with lastUsedAt)" }),
    lastUsedRoute: t.exposeString("lastUsedRoute", {
      nullable: true,
      description: "What the last use called: the method and route template, e.g. GET /v1/reports/{reportId} or POST /graphql (written with lastUsedAt)",
    }),
    replacedById: t.exposeID("replacedById", {
      nullable: true,
      description: "Set once the key was rolled: the key that replaced it (this one works until its expiresAt, the end of the overlap; both spend one hourly budget)",
    }),
    trustedDocumentsOnly: t.exposeBoolean("trustedDocumentsOnly", { description: "The key runs registered GraphQL documents only (by documentId)" }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the key was created" }),
    quota: t.field({
      type: KeyQuota,
      ...inThisHour("The key's rate limit", async (limiter, budget, tier) => applyLimit(await limiter.peek(budget), tierLimit(tier))),
    }),
    points: t.field({
      type: KeyPoints,
      ...inThisHour("The key's read-cost points", async (limiter, budget, tier) => {
        const counted = await limiter.peek(pointsKey(budget));
        return { limit: pointsBudget(tier), used: counted.count, resetsAt: counted.resetsAt };
      }),
    }),
  }),
});

const HourlyCountRef = valueObject<{ keyId: string; hour: Date; count: number }>("ApiKeyHourlyCount", "Authenticated requests of one key in one UTC clock hour.", {
  keyId: ["ID", "The key's id"],
  hour: ["DateTime", "The first instant of the hour (UTC)"],
  count: ["Int", "Requests of the key in that hour"],
});

builder.queryField("apiKeyUsage", (t) =>
  t.field({
    type: [HourlyCountRef],
    ...needs("api_keys:read", "Requests per key and UTC clock hour of the team's keys over the last `hours` hours (this one included), oldest first; hours without requests are left out."),
    args: {
      hours: t.arg.int({ defaultValue: 168, required: true, description: "Hours to look back, 1 to 744 (default 7 days)", validate: intBetween(1, 744) }),
    },
    resolve: (_root, { hours }, ctx) => hourlyCounts(teamIdOf(ctx), new Date(hourStart().getTime() - (hours - 1) * 3_600_000)),
  }),
);

const CreatedApiKey = builder.objectRef<{ key: string; id: string }>("CreatedApiKey").implement({
  description: "A new key: the full key, shown this once, and its record.",
  fields: (t) => ({
    key: t.exposeString("key", { description: "The full key. Shown only this once." }),
    apiKey: t.prismaField({ type: "ApiKey", description: "The key's record", resolve: (query, { id }) => prisma.apiKey.findUniqueOrThrow({ ...query, where: { id } }) }),
  }),
});

const RollOverlapRef = builder.enumType("ApiKeyRollOverlap", {
  description: "How long a rolled key keeps working beside the key that replaces it.",
  values: {
    NONE: { value: "NONE" as RollOverlap, description: "It stops at once" },
    HOUR: { value: "HOUR" as RollOverlap, description: "One hour" },
    DAY: { value: "DAY" as RollOverlap, description: "24 hours" },
    WEEK: { value: "WEEK" as RollOverlap, description: "7 days" },
  },
});

const RolledApiKey = builder.objectRef<{ key: string; id: string; previousId: string }>("RolledApiKey").implement({
  description: "A rolled key: the new key in full, shown this once, its record, and the old key's record with the end of its overlap as expiresAt.",
  fields: (t) => ({
    key: t.exposeString("key", { description: "The full new key. Shown only this once." }),
    apiKey: t.prismaField({ type: "ApiKey", description: "The new key's record", resolve: (query, { id }) => prisma.apiKey.findUniqueOrThrow({ ...query, where: { id } }) }),
    previousKey: t.prismaField({
      type: "ApiKey",
      description: "The old key's record: it works until its expiresAt",
      resolve: (query, { previousId }) => prisma.apiKey.findUniqueOrThrow({ ...query, where: { id: previousId } }),
    }),
  }),
});

const CreateApiKeyInput = builder.inputType("CreateApiKeyInput", {
  description: "A new API key of the caller's team.",
  fields: (t) => ({
    name: t.string({ required: true, description: "The key's name" }),
    description: t.string({ description: "What the key is for" }),
    expiresAt: t.field({
      type: "DateTime",
      description: "When the key stops working; at most the caller's own expiry (default: the caller's expiry, never when it has none)",
    }),
    permissions: t.stringList({ description: "resource:action entries, e.g. reports:read; default: full team access without api_keys" }),
    rateLimitTier: t.string({ description: "free, standard, pro or enterprise; default and at most: the caller's tier" }),
    trustedDocumentsOnly: t.boolean({
      description: "Runs registered GraphQL documents only (safe in a browser app); default false, and true when the caller's key is so limited",
    }),
  }),
  validate: z.object({
    name: z.string().trim().min(1).max(200),
    description: z.string().max(1000).nullish(),
    expiresAt: z.date().nullish(),
    permissions: z.array(z.string()).nullish(),
    rateLimitTier: z.enum(Object.keys(TIERS) as [string, ...string[]]).nullish(),
    trustedDocumentsOnly: z.boolean().nullish(),
  }),
});

builder.queryField("apiKeys", (t) =>
  t.prismaField({
    type: ["ApiKey"],
    ...needs("api_keys:read", "The team's API keys (never the keys themselves)."),
    resolve: (query, _root, _args, ctx) =>
      prisma.apiKey.findMany({ ...query, where: { teamId: teamIdOf(ctx) }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
  }),
);

/**
 * The expiry of a key created by key `creatorId`, which it may not outlive: `requested`, or the creator's own expiry
 * when none is requested; a later one than the creator's is refused (403 naming expiresAt).
 */
async function expiryWithin(creatorId: string, requested: Date | null | undefined): Promise<Date | null> {
  const { expiresAt: own } = await prisma.apiKey.findUniqueOrThrow({ where: { id: creatorId }, select: { expiresAt: true } });
  if (!requested) return own;
  if (own && requested > own) {
    throw permissionDenied(`expiresAt ${requested.toISOString()} is after this key's own expiry ${own.toISOString()}`);
  }
  return requested;
}

builder.mutationFields((t) => ({
  createApiKey: t.field({
    type: CreatedApiKey,
    ...needs("api_keys:create", "Creates a key for the caller's team. It cannot hold a permission the caller's key lacks nor expire after it; a team holds at most 100 active keys (MAX_KEYS_PER_TEAM)."),
    args: { input: t.arg({ type: CreateApiKeyInput, required: true, description: "The new key" }) },
    resolve: async (_root, { input }, ctx) => {
      const viewer = viewerOf(ctx);
      let permissions: Permissions;
      try {
        permissions = input.permissions ? parsePermissions(input.permissions) : TEAM_FULL_ACCESS;
      } catch (err) {
        throw badInput((err as Error).message);
      }
      const missing = firstMissing(permissions, viewer.permissions);
      if (missing) throw permissionDenied(missing);
      // Nor a larger rate-limit budget than the creator's own key.
      const tier = input.rateLimitTier ?? viewer.tier;
      if (tierLimit(tier) > tierLimit(viewer.tier)) {
        throw permissionDenied(`rateLimitTier '${tier}' is above this key's tier '${viewer.tier}'`);
      }
      if (input.expiresAt && input.expiresAt.getTime() <= Date.now()) throw badInput("expiresAt must be in the future");
      const expiresAt = await expiryWithin(viewer.keyId, input.expiresAt);
      // A key limited to registered documents makes only keys limited so.
      const trustedDocumentsOnly = input.trustedDocumentsOnly ?? viewer.trustedDocumentsOnly ?? false;
      if (viewer.trustedDocumentsOnly && !trustedDocumentsOnly) throw permissionDenied("trustedDocumentsOnly false: this key runs registered documents only");
      try {
        return await createApiKey(
          { teamId: viewer.teamId, name: input.name, description: input.description, expiresAt, permissions, tier, trustedDocumentsOnly },
          undefined,
          ctx,
        );
      } catch (err) {
        throw err instanceof KeyLimitReached ? badInput(err.message) : err;
      }
    },
  }),
  revokeApiKey: t.prismaField({
    type: "ApiKey",
    ...needs("api_keys:delete", "Revokes a key of the team at once, on every server."),
    args: { id: t.arg.id({ required: true, description: "The key's id" }) },
    resolve: async (query, _root, { id }, ctx) => {
      const teamId = teamIdOf(ctx);
      // Its live streams close on every process (docs/api.md "Live updates").
      if (isUuid(String(id)) && (await revokeApiKey(String(id), teamId, ctx))) liveBus().keyChanged(String(id));
      const key = isUuid(String(id)) ? await prisma.apiKey.findFirst({ ...query, where: { id: String(id), teamId } }) : null;
      if (!key) throw notFound("API key not found");
      return key;
    },
  }),
  rollApiKey: t.field({
    type: RolledApiKey,
    ...needs(["api_keys:create", "api_keys:delete"], "Replaces a key with a new one of the same name, description, permissions, tier and expiry (the full key is shown this once). The old key keeps working for the overlap, then answers 401 on every server; until then both count against the new key's hourly budget and the cap of 100 active keys (at the cap, only overlap NONE is allowed). The new key cannot hold more than the caller's key."),
    args: {
      id: t.arg.id({ required: true, description: "The id of the key to replace" }),
      overlap: t.arg({ type: RollOverlapRef, required: true, defaultValue: "NONE", description: "How long the old key keeps working (default NONE: it stops at once)" }),
    },
    resolve: async (_root, { id, overlap }, ctx) => {
      const viewer = viewerOf(ctx);
      const old = isUuid(String(id)) ? await prisma.apiKey.findFirst({ where: { id: String(id), teamId: viewer.teamId } }) : null;
      if (!old) throw notFound("API key not found");
      // The same rules as createApiKey: a caller cannot mint a key that holds, spends or outlives more than its own.
      const missing = firstMissing(old.permissions as Permissions, viewer.permissions);
      if (missing) throw permissionDenied(missing);
      if (tierLimit(old.rateLimitTier) > tierLimit(viewer.tier)) {
        throw permissionDenied(`rateLimitTier '${old.rateLimitTier}' is above this key's tier '${viewer.tier}'`);
      }
      const { expiresAt: own } = await prisma.apiKey.findUniqueOrThrow({ where: { id: viewer.keyId }, select: { expiresAt: true } });
      if (own && (!old.expiresAt || old.expiresAt > own)) {
        throw permissionDenied(`expiresAt ${old.expiresAt?.toISOString() ?? "never"} is after this key's own expiry ${own.toISOString()}`);
      }
      try {
        const rolled = await rollApiKey({ teamId: viewer.teamId, id: old.id, overlap }, ctx);
        if (!rolled) throw notFound("API key not found");
        liveBus().keyChanged(rolled.previousId); // its streams close when its overlap ends (at once for NONE)
        return rolled;
      } catch (err) {
        throw err instanceof KeyLimitReached || err instanceof KeyNotRollable ? badInput(err.message) : err;
      }
    },
  }),
}));
