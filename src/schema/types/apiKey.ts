// API keys: the key record (never the secret), and key management for keys holding api_keys permissions.
import { z } from "zod";
import { createApiKey } from "../../auth/api-keys";
import { firstMissing, parsePermissions, TEAM_FULL_ACCESS, type Permissions } from "../../auth/permissions";
import { TIERS, tierLimit } from "../../auth/tiers";
import { prisma } from "../../db";
import { builder } from "../builder";
import { badInput, notFound, permissionDenied } from "../errors";
import { isUuid, teamIdOf, viewerOf } from "../scope";

builder.prismaObject("ApiKey", {
  fields: (t) => ({
    id: t.exposeID("id"),
    name: t.exposeString("name"),
    description: t.exposeString("description", { nullable: true }),
    prefix: t.exposeString("prefix", { description: "The first 16 characters of the key" }),
    permissions: t.expose("permissions", { type: "JSON", description: "resource → actions" }),
    rateLimitTier: t.exposeString("rateLimitTier"),
    expiresAt: t.expose("expiresAt", { type: "DateTime", nullable: true }),
    revokedAt: t.expose("revokedAt", { type: "DateTime", nullable: true }),
    lastUsedAt: t.expose("lastUsedAt", { type: "DateTime", nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

const CreatedApiKey = builder.objectRef<{ key: string; id: string }>("CreatedApiKey").implement({
  fields: (t) => ({
    key: t.exposeString("key", { description: "The full key. Shown only this once." }),
    apiKey: t.prismaField({ type: "ApiKey", resolve: (query, { id }) => prisma.apiKey.findUniqueOrThrow({ ...query, where: { id } }) }),
  }),
});

const CreateApiKeyInput = builder.inputType("CreateApiKeyInput", {
  fields: (t) => ({
    name: t.string({ required: true }),
    description: t.string(),
    expiresAt: t.field({ type: "DateTime" }),
    permissions: t.stringList({ description: "resource:action entries, e.g. reports:read; default: full team access without api_keys" }),
    rateLimitTier: t.string(),
  }),
  validate: z.object({
    name: z.string().trim().min(1).max(200),
    description: z.string().max(1000).nullish(),
    expiresAt: z.date().nullish(),
    permissions: z.array(z.string()).nullish(),
    rateLimitTier: z.enum(Object.keys(TIERS) as [string, ...string[]]).nullish(),
  }),
});

builder.queryField("apiKeys", (t) =>
  t.prismaField({
    type: ["ApiKey"],
    description: "The team's API keys (never the keys themselves).",
    authScopes: { permission: "api_keys:read" },
    resolve: (query, _root, _args, ctx) =>
      prisma.apiKey.findMany({ ...query, where: { teamId: teamIdOf(ctx) }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
  }),
);

builder.mutationFields((t) => ({
  createApiKey: t.field({
    type: CreatedApiKey,
    description: "Creates a key for the caller's team. It cannot hold a permission the caller's key lacks.",
    authScopes: { permission: "api_keys:create" },
    args: { input: t.arg({ type: CreateApiKeyInput, required: true }) },
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
      return createApiKey({
        teamId: viewer.teamId,
        name: input.name,
        description: input.description,
        expiresAt: input.expiresAt,
        permissions,
        tier,
      });
    },
  }),
  revokeApiKey: t.prismaField({
    type: "ApiKey",
    description: "Revokes a key of the team at once, on every server.",
    authScopes: { permission: "api_keys:delete" },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      const teamId = teamIdOf(ctx);
      const { count } = isUuid(String(id))
        ? await prisma.apiKey.updateMany({ where: { id: String(id), teamId, revokedAt: null }, data: { revokedAt: new Date() } })
        : { count: 0 };
      const key = count || isUuid(String(id)) ? await prisma.apiKey.findFirst({ ...query, where: { id: String(id), teamId } }) : null;
      if (!key) throw notFound("API key not found");
      return key;
    },
  }),
}));
