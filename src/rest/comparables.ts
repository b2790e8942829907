// /v1/reports/{reportId}/comparables (list, add, replace the set), /v1/comparables/{id} and the report's valuation.
import type { Request, Router } from "express";
import type { Context } from "../context";
import { restToInput } from "../schema/fields";
import { comparableFields } from "../schema/resources/comparable/fields";
import { operation, RestError, run } from "./graphql";
import { bodyObject, jsonBody } from "./input";
import { itemFragment, reportItemsRouter } from "./report-items";
import { allowOnly, handle } from "./route";
import { bodyFormat, createComparableFromReso, resoCreated } from "./reso";

const spec = {
  type: "Comparable",
  one: "comparable",
  many: "comparables",
  path: "comparables",
  param: "comparableId",
  label: "Comparable",
  table: comparableFields,
  // docs/api.md "Wave 3 contracts" (RESO): a create may send a RESO Property record
  createOtherwise: async (req: Request, context: Context) =>
    bodyFormat(req, comparableFields) === "reso"
      ? resoCreated(await createComparableFromReso(req, String(req.params.reportId), context), "Comparable created successfully")
      : undefined,
} as const;

const REPLACE = operation(`mutation RestReplaceComparables($reportId: ID!, $comparables: [CreateComparableInput!]!) {
  replaceComparables(reportId: $reportId, comparables: $comparables) { ...RestComparable }
} ${itemFragment(spec)}`);

const VALUATION = operation(`query RestValuation($reportId: ID!) {
  valuation(reportId: $reportId) {
    subject { sqft price }
    comparables_total: comparablesTotal
    comparables_used: comparablesUsed
    price_per_sqft: pricePerSqft { min median max }
    estimated_value: estimatedValue
    value_range: valueRange { low high }
    warnings
    confidence { level score spread }
    comparables { id similarity used }
  }
}`);

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

export function comparablesRouter(): Router {
  return reportItemsRouter(spec, {
    list: {
      methods: ["PUT"],
      add: (router, path) => {
        router.put(
          path,
          jsonBody,
          handle(async (req, res) => {
            const { list, spelled } = replacement(bodyObject(req));
            const { replaceComparables } = await run<{ replaceComparables: unknown[] }>(
              REPLACE,
              { reportId: req.params.reportId, comparables: list },
              res.locals.context,
              { spelled },
            );
            res.json({ data: replaceComparables, message: "Comparables replaced successfully" });
          }),
        );
        const valuation = path.replace(/comparables$/, "valuation");
        router.get(
          valuation,
          handle(async (req, res) => {
            const { valuation: data } = await run<{ valuation: unknown }>(VALUATION, { reportId: req.params.reportId }, res.locals.context);
            res.json({ data });
          }),
        );
        allowOnly(router, valuation, ["GET"]);
      },
    },
  });
}
