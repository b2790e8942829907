// GET /v1/usage and GET /v1/usage/routes (docs/api.md "Usage export"): the GraphQL usageExport and usageByRoute under
// REST names, as JSON or as CSV with a header row of the same names.
import type { Request, Response } from "express";
import { z } from "zod";
import { queryInstant } from "./audit-log";
import { operation, runRoot, RestError, type Operation } from "./graphql";
import { queryText } from "./input";
import type { RestRoute } from "./route";
import * as s from "./schemas";
import { USAGE_BY_ROUTE, USAGE_PERIOD } from "./shapes";

const EXPORT = operation(`query RestUsage($from: DateTime, $to: DateTime, $granularity: UsageGranularity!) {
  usageExport(from: $from, to: $to, granularity: $granularity) { ${USAGE_PERIOD.selection} }
}`);

const BY_ROUTE = operation(`query RestUsageByRoute($from: DateTime, $to: DateTime) {
  usageByRoute(from: $from, to: $to) { ${USAGE_BY_ROUTE.selection} }
}`);

type Row = Record<string, string | number>;

/** A query parameter that must be one of `values` (default the first), or a 400 naming it. */
function oneOf<T extends string>(req: Request, name: string, values: readonly T[]): T {
  const value = queryText(req, name) ?? values[0];
  if (!values.includes(value as T)) throw new RestError(400, `${name} must be one of ${values.join(", ")}`);
  return value as T;
}

/**
 * A CSV field (RFC 4180): quoted when it holds a comma, quote or line break. Text a spreadsheet would run as a formula
 * (starting with = + - @, a tab or carriage return) is written after a single quote, so opening the file runs nothing.
 */
function csvField(value: string | number): string {
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A CSV of `rows` whose columns are the JSON answer's names, in its order. */
const csvOf = (names: ReadonlyArray<readonly [string, ...unknown[]]>, rows: Row[]): string => {
  const columns = names.map(([rest]) => rest);
  return [columns.join(","), ...rows.map((row) => columns.map((c) => csvField(row[c])).join(","))].join("\r\n") + "\r\n";
};

/**
 * The rows `rows` answers, as JSON (answered by the route table) or, with format=csv, sent as a CSV file of that name;
 * `format` is checked before `rows` reads its own query parameters (as the routes checked them before).
 */
async function jsonOrCsv(req: Request, res: Response, file: string, names: Parameters<typeof csvOf>[0], rows: () => Promise<Row[]>) {
  const format = oneOf(req, "format", ["json", "csv"] as const);
  const answer = await rows();
  if (format === "json") return answer;
  res.setHeader("Content-Disposition", `attachment; filename="${file}"`);
  res.type("text/csv; charset=utf-8").send(csvOf(names, answer));
}

/** A table of the team's usage: its rows as JSON, or with format=csv as a CSV file with a header row of the same names. */
interface UsageTable extends Pick<RestRoute, "path" | "operationId" | "summary" | "query" | "responseDescription"> {
  operation: Operation;
  /** A row's schema and REST names (its JSON names, the CSV's columns), and the CSV answer's schema. */
  row: z.ZodType;
  names: Parameters<typeof csvOf>[0];
  csv: z.ZodType;
  /** The CSV file's name, read first: a wrong granularity is the 400's subject before a wrong format. */
  file: (req: Request) => string;
  variables: (req: Request) => Record<string, unknown>;
}

const usageRoute = ({ operation, row, names, csv, file, variables, ...route }: UsageTable): RestRoute => ({
  method: "get",
  tag: "Usage",
  ...route,
  operations: [operation],
  answer: { data: z.array(row) },
  csvResponse: csv,
  errors: [400],
  run: (req, res) => jsonOrCsv(req, res, file(req), names, () => runRoot<Row[]>(operation, variables(req), res.locals.context)),
});

const granularity = (req: Request) => oneOf(req, "granularity", ["hour", "day"] as const);
const range = (req: Request) => ({ from: queryInstant(req, "from"), to: queryInstant(req, "to") });

export const usageRoutes: RestRoute[] = [
  usageRoute({
    path: "/v1/usage",
    operationId: "getUsage",
    summary: (needs) => `Requests per key and UTC hour or day of the team's keys, oldest period first, as JSON or CSV (needs ${needs})`,
    operation: EXPORT,
    query: s.usageQuery,
    row: s.usageRow,
    names: USAGE_PERIOD.names,
    csv: s.usageCsv,
    responseDescription: "The periods with requests",
    file: (req) => `usage-${granularity(req)}.csv`,
    variables: (req) => ({ ...range(req), granularity: granularity(req).toUpperCase() }),
  }),
  usageRoute({
    path: "/v1/usage/routes",
    operationId: "getUsageByRoute",
    summary: (needs) =>
      `Answers per key and route template of the team's keys over a range, by outcome (below 400, other 4xx, 429, 5xx), as JSON or CSV (needs ${needs})`,
    operation: BY_ROUTE,
    query: s.usageRoutesQuery,
    row: s.usageRouteRow,
    names: USAGE_BY_ROUTE.names,
    csv: s.usageRoutesCsv,
    responseDescription: "One row per key and route called in the range",
    file: () => "usage-routes.csv",
    variables: range,
  }),
];
