// The report detail's collections, each declared once: its REST name, the Report field that answers it and the item's
// field table and response schema. The detail's selection (./shapes.ts), its OpenAPI schema (./schemas.ts) and the
// leaving out of a collection the key may not read are made from here; the permission each needs is its Report
// field's (authScopes), read from the schema.
import { isObjectType } from "graphql";
import { z } from "zod";
import { schema } from "../schema";
import { fieldPermissions } from "../schema/auth-scopes";
import { restResponseSchema, restSelection } from "../schema/fields";
import { comparableFields } from "../schema/resources/comparable/fields";
import { insightFields } from "../schema/resources/insight/fields";
import { showingFields } from "../schema/resources/showing/fields";
import { socialPostFields } from "../schema/resources/social-post/fields";

export const comparable = restResponseSchema(comparableFields).meta({ id: "ComparableProperty" });
export const showing = restResponseSchema(showingFields).meta({ id: "Showing" });
export const socialMediaPost = restResponseSchema(socialPostFields).meta({ id: "SocialMediaPost" });
export const agentInsight = restResponseSchema(insightFields).meta({ id: "AgentInsight" });

/** REST name → the Report field, its items' field table and their response schema, in the detail's order. */
const DETAIL_COLLECTIONS = {
  comparable_properties: { field: "comparables", table: comparableFields, item: comparable },
  showing_events: { field: "showings", table: showingFields, item: showing },
  social_media_posts: { field: "socialMediaPosts", table: socialPostFields, item: socialMediaPost },
  agent_insights: { field: "agentInsights", table: insightFields, item: agentInsight },
} as const;

export type Collection = keyof typeof DETAIL_COLLECTIONS;
export const COLLECTIONS = Object.keys(DETAIL_COLLECTIONS) as Collection[];

/** The collections selected under their REST names. */
export const collectionsSelection = (): string =>
  COLLECTIONS.map((rest) => `${rest}: ${DETAIL_COLLECTIONS[rest].field} { ${restSelection(DETAIL_COLLECTIONS[rest].table)} }`).join("\n  ");

const permissionsOf = (field: string): string => {
  const report = schema.getType("Report");
  if (!isObjectType(report)) throw new Error("No object type Report");
  return fieldPermissions(report.getFields()[field]).join(", ");
};

/** The collections of the detail's response schema: each left out when the key lacks its read permission. */
export const collectionSchemas = () =>
  Object.fromEntries(
    COLLECTIONS.map((rest) => [
      rest,
      z
        .array(DETAIL_COLLECTIONS[rest].item)
        .optional()
        .meta({ description: `Left out when the key lacks ${permissionsOf(DETAIL_COLLECTIONS[rest].field)}` }),
    ]),
  ) as { [K in Collection]: z.ZodOptional<z.ZodArray<(typeof DETAIL_COLLECTIONS)[K]["item"]>> };
