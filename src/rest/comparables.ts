// /v1/reports/{reportId}/comparables (list, add, replace the set), /v1/comparables/{id} and the report's valuation.
import type { Request } from "express";
import { z } from "zod";
import { restToInput } from "../schema/fields";
import { comparableFields } from "../schema/resources/comparable/fields";
import { operation, RestError, runRoot } from "./graphql";
import { bodyObject } from "./input";
import { itemFragment, reportIdParam, reportItemRoutes, type ReportItemsRoutes } from "./report-items";
import type { RestRoute } from "./route";
import { getRoute } from "./route-kinds";
import * as s from "./schemas";
import { VALUATION } from "./shapes";
import { bodyFormat, createComparableFromReso, RESO_OPERATIONS, resoCreated } from "./reso";

const spec: ReportItemsRoutes = {
  type: "Comparable",
  one: "comparable",
  many: "comparables",
  path: "comparables",
  param: "comparableId",
  label: "Comparable",
  table: comparableFields,
  tag: "Comparables",
  noun: "comparable",
  nouns: "comparables",
  op: "Comparable",
  response: s.comparable,
  create: s.createComparableBody,
  update: s.updateComparableBody,
};

const REPLACE = operation(`mutation RestReplaceComparables($reportId: ID!, $comparables: [CreateComparableInput!]!) {
  replaceComparables(reportId: $reportId, comparables: $comparables) { ...RestComparable }
} ${itemFragment(spec)}`);

const VALUATION_QUERY = operation(`query RestValuation($reportId: ID!) { valuation(reportId: $reportId) { ${VALUATION.selection} } }`);

/** The items of a PUT body ({ "comparables": [ … ] }) as GraphQL inputs, and the spellings their fields came in. */
function replacement(body: Record<string, unknown>): { list: unknown[]; spelled: Map<string, string> } {
  const items = body.comparables;
  if (!Array.isArray(items)) throw new RestError(400, items === undefined ? "comparables is required" : "comparables must be an array");
  const spelled = new Map<string, string>();
  const list = items.map((item, i) => {
    if (typeof item !== "object" || item === null || Array.isArray(item)) throw new RestError(400, `comparables[${i}] must be an object`);
    const one = restToInput(comparableFields, "create", item as Record<string, unknown>);
    for (const [field, rest] of one.spelled) if (!spelled.has(field)) spelled.set(field, rest);
    return one.input;
  });
  return { list, spelled };
}

const reportId = (req: Request) => ({ reportId: req.params.reportId });

const CREATED = "Comparable created successfully";

/** The create route also takes a RESO Property record (docs/api.md "RESO"; ./reso.ts). */
const withReso = (route: RestRoute): RestRoute =>
  route.operationId !== "createComparable"
    ? route
    : {
        ...route,
        description: "The body may be a RESO Property record (format=reso, or detected by its names): the answer then adds ignored_fields.",
        operations: [...route.operations, RESO_OPERATIONS.createComparable],
        query: s.createFormatQuery,
        body: s.createComparableBody.or(s.resoComparableBody),
        answer: { body: s.createdOf(s.comparable) },
        message: undefined,
        run: async (req, res) => {
          if (bodyFormat(req, comparableFields) === "reso") {
            return resoCreated(await createComparableFromReso(req, String(req.params.reportId), res.locals.context), CREATED);
          }
          return { data: await route.run(req, res), message: CREATED };
        },
      };

export const comparableRoutes: RestRoute[] = [
  ...reportItemRoutes(spec).map(withReso),
  {
    method: "put",
    path: "/v1/reports/{reportId}/comparables",
    operationId: "replaceComparables",
    tag: "Comparables",
    summary: (needs) => `Replace a report's whole set of comparables (needs ${needs})`,
    description:
      "One transaction: every item is valid and saved, or nothing changes and the 400 names the item (comparables[3].price must be a number). The answer is the new set in the order sent.",
    operations: [REPLACE],
    params: reportIdParam,
    body: s.replaceComparablesBody,
    answer: { data: z.array(s.comparable) },
    message: "Comparables replaced successfully",
    responseDescription: "The new set",
    run: (req, res) => {
      const { list, spelled } = replacement(bodyObject(req));
      return runRoot(REPLACE, { ...reportId(req), comparables: list }, res.locals.context, { spelled });
    },
  },
  getRoute({
    path: "/v1/reports/{reportId}/valuation",
    operationId: "getValuation",
    tag: "Comparables",
    summary: (needs) => `A comparative market analysis of a report from its comparables (needs ${needs})`,
    description: "The median adjusted price per square foot of the included comparables × the report's sqft; see the README for the method.",
    operation: VALUATION_QUERY,
    params: reportIdParam,
    variables: reportId,
    data: s.valuation,
    responseDescription: "The valuation",
    cacheable: true,
  }),
];
