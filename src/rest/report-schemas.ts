// The OpenAPI response schemas of a report (list item, body, detail with its collections), from its field table:
// in a file of their own below both ./schemas.ts (the OpenAPI document, which re-exports them) and ./shapes.ts (the
// bodies' types), which imports nothing of ./schemas.ts.
import { restResponseSchema } from "../schema/fields";
import { reportFields } from "../schema/resources/report/fields";
import { collectionSchemas } from "./collections";

export const reportSummary = restResponseSchema(reportFields, "summary").meta({
  id: "ReportSummary",
  description: "A report in list responses, with both the documented and the sample field names",
});
export const report = restResponseSchema(reportFields).meta({
  id: "Report",
  description: "Every field of a report, without its collections (create and update responses)",
});

export const reportDetail = report
  .extend(collectionSchemas())
  .meta({ id: "ReportDetail", description: "A report with its collections (get and address search)" });
