// A report's embedded collections (comparables, showings, social posts, agent insights): each is its own resource,
// read with that resource's read permission, oldest first, at most NESTED_LIMIT items a page.
import type { Permission } from "../../auth/permissions";
import type PrismaTypes from "../../generated/pothos-types";
import { NESTED_LIMIT } from "../builder";
import { pageArgRules } from "../rules";
import type { SqlJsonCollection } from "../sql-json/plan";
import { needs } from "../needs";

/** The order of every collection (also the one-statement read path's, ../sql-json). */
export const COLLECTION_ORDER = [{ createdAt: "asc" }, { id: "asc" }] as const;

/** A list relation of Report in the Prisma schema (the generated Pothos types list them). */
type Relation = PrismaTypes["Report"]["ListRelations"];

/** The relation field of one collection on Report, with limit/offset. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Pothos's field builder of the Report prisma object, whose type names each relation
export function collection(t: any, relation: Relation, permission: Permission, description: string) {
  return t.relation(relation, {
    nullable: true,
    ...needs(permission, `${description}, oldest first.`),
    args: {
      limit: t.arg.int({ defaultValue: NESTED_LIMIT, required: true, description: `Items, 1 to ${NESTED_LIMIT}`, validate: pageArgRules.limit }),
      offset: t.arg.int({ defaultValue: 0, required: true, description: "Items to skip, at least 0", validate: pageArgRules.offset }),
    },
    // No OFFSET in the SQL when there is nothing to skip.
    query: ({ limit, offset }: { limit: number; offset: number }) => ({ orderBy: [...COLLECTION_ORDER], take: limit, ...(offset ? { skip: offset } : {}) }),
    // The one-statement read path (../sql-json) joins on the relation's fields in the data model, in the same order.
    extensions: { sqlJson: { kind: "collection", orderBy: COLLECTION_ORDER } satisfies SqlJsonCollection },
  });
}
