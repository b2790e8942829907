// RESO Data Dictionary 2.0 Property records in and out (docs/api.md "RESO"): one table of RESO
// names and the REST fields of a report and of a comparable they stand for. The answer of
// GET /v1/reports/{reportId}?format=reso, the reading of POST /v1/reports?format=reso and of
// POST /v1/reports/{reportId}/comparables?format=reso, the OpenAPI schemas and the mapping table of docs/features/reso.md are all
// derived from RESO_FIELDS. Only names and shapes are mapped here; the GraphQL schema checks every value.
import type { Request } from "express";
import { z } from "zod";
import type { Context } from "../context";
import { restSelection, restToInput, type FieldTable } from "../schema/fields";
import { MAX_NUMBER } from "../schema/rules";
import { comparableFields } from "../schema/resources/comparable/fields";
import { knownPropertyType } from "../schema/resources/report/property-types";
import { reportFields } from "../schema/resources/report/fields";
import { operation, RestError, run } from "./graphql";
import { bodyObject, queryText } from "./input";

type Body = Record<string, unknown>;
export type ResoResource = "report" | "comparable";

/** RESO's StandardStatus enumeration. */
export const STANDARD_STATUSES = [
  "Active",
  "Active Under Contract",
  "Canceled",
  "Closed",
  "Coming Soon",
  "Delete",
  "Expired",
  "Hold",
  "Incomplete",
  "Pending",
  "Withdrawn",
] as const;
type StandardStatus = (typeof STANDARD_STATUSES)[number];

/** RESO's PropertyType enumeration. */
export const PROPERTY_TYPES = [
  "Business Opportunity",
  "Commercial Lease",
  "Commercial Sale",
  "Farm",
  "Land",
  "Manufactured In Park",
  "Residential",
  "Residential Income",
  "Residential Lease",
] as const;

/** A report's status as a StandardStatus (a report is a draft or published). */
export const REPORT_STATUS_TO_RESO: Record<string, StandardStatus> = { draft: "Coming Soon", published: "Active" };

/** A StandardStatus as a comparable's status. */
export const COMPARABLE_STATUS_OF_RESO: Record<StandardStatus, "sold" | "active" | "pending" | "off_market"> = {
  Closed: "sold",
  Active: "active",
  "Active Under Contract": "pending",
  Pending: "pending",
  "Coming Soon": "off_market",
  Canceled: "off_market",
  Delete: "off_market",
  Expired: "off_market",
  Hold: "off_market",
  Incomplete: "off_market",
  Withdrawn: "off_market",
};

/** property_type values with a RESO PropertyType (and PropertySubType); any other text goes as PropertySubType. */
export const PROPERTY_TYPE_TABLE = [
  { value: "single_family", type: "Residential", subType: "Single Family Residence" },
  { value: "condo", type: "Residential", subType: "Condominium" },
  { value: "townhouse", type: "Residential", subType: "Townhouse" },
  { value: "manufactured", type: "Residential", subType: "Manufactured Home" },
  { value: "multi_family", type: "Residential Income", subType: null },
  { value: "rental", type: "Residential Lease", subType: null },
  { value: "land", type: "Land", subType: null },
  { value: "farm", type: "Farm", subType: null },
  { value: "commercial", type: "Commercial Sale", subType: null },
] as const satisfies ReadonlyArray<{ value: string; type: (typeof PROPERTY_TYPES)[number]; subType: string | null }>;

const SQUARE_FEET_PER_SQUARE_METER = 10.763910417;
const SQUARE_FEET_PER_ACRE = 43_560;

/** How one RESO field stands for a field of one resource. */
interface Side {
  /** The REST field. */
  field: string;
  /** Only answered (the service sets it): never read from input. */
  readOnly?: true;
  /** Only read from input. */
  inOnly?: true;
  /** The RESO value of a REST body (default: the field's value, null when absent). */
  out?: (body: Body) => unknown;
  /** The REST value of the RESO value, reading other fields of the record if it needs to (default: as it is). */
  in?: (value: unknown, record: Body) => unknown;
  /** Read with this RESO field, which maps both: mapped when that one filled the field, else not mapped. */
  with?: string;
  /** false: never mapped on its own (only with `with`). */
  alone?: false;
}

export interface ResoField {
  reso: string;
  /** Its JSON type (checked on input; the OpenAPI schemas). */
  type: "string" | "number" | "integer" | "date-time" | "date";
  /** What docs/features/reso.md says of it. */
  note: string;
  report?: Side;
  comparable?: Side;
}

const fail = (name: string, problem: string): never => {
  throw new RestError(400, `${name} ${problem}`);
};

/** BathroomsTotalInteger counts a half bath as a bathroom (RESO: 2 full + 1 half = 3). */
const bathroomsOut = (b: Body) => (typeof b.baths === "number" ? Math.ceil(b.baths) : null);
const halfBathsOut = (b: Body) => (typeof b.baths === "number" ? (Number.isInteger(b.baths) ? 0 : 1) : null);
function bathsIn(total: unknown, record: Body): number | null {
  if (total === null) return null;
  const half = record.BathroomsHalf ?? 0;
  if (!Number.isInteger(half) || (half as number) < 0) fail("BathroomsHalf", "must be a whole number, at least 0");
  if ((half as number) > (total as number)) fail("BathroomsHalf", "must be at most BathroomsTotalInteger");
  return (total as number) - (half as number) / 2;
}

function livingAreaIn(area: unknown, record: Body): number | null {
  const units = record.LivingAreaUnits ?? "Square Feet";
  if (units !== "Square Feet" && units !== "Square Meters") fail("LivingAreaUnits", "must be Square Feet or Square Meters");
  if (area === null) return null;
  return Math.round(units === "Square Meters" ? (area as number) * SQUARE_FEET_PER_SQUARE_METER : (area as number));
}

/** A RESO date (2026-06-01) as the instant this API takes; a date-time as it is. */
const dateIn = (value: unknown) => (typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);

/** The table's row a property_type names, exactly or by a common spelling ("Single Family Home", "SFR", "Condominium"). */
export function propertyTypeRow(value: string) {
  const known = knownPropertyType(value);
  return PROPERTY_TYPE_TABLE.find((row) => row.value === value || row.value === known);
}

function propertyTypeOut(value: unknown): { type: string | null; subType: string | null } {
  if (typeof value !== "string") return { type: null, subType: null };
  const known = propertyTypeRow(value);
  return known ? { type: known.type, subType: known.subType } : { type: null, subType: value };
}

/** property_type from PropertyType and PropertySubType: a row of the table, else the subtype's or type's text. */
function propertyTypeIn(_value: unknown, record: Body): string | null {
  const type = record.PropertyType ?? null;
  const subType = record.PropertySubType ?? null;
  if (type !== null && !(PROPERTY_TYPES as readonly unknown[]).includes(type)) fail("PropertyType", `must be one of ${PROPERTY_TYPES.join(", ")}`);
  const known = PROPERTY_TYPE_TABLE.find((row) => row.type === type && row.subType === subType);
  return known ? known.value : ((subType ?? type) as string | null);
}

function comparableStatusIn(value: unknown): string | null {
  if (value === null) return null;
  if (!(STANDARD_STATUSES as readonly unknown[]).includes(value)) fail("StandardStatus", `must be one of ${STANDARD_STATUSES.join(", ")}`);
  return COMPARABLE_STATUS_OF_RESO[value as StandardStatus];
}

const both = (field: string, more: Omit<Side, "field"> = {}) => ({ report: { field, ...more }, comparable: { field, ...more } });

/**
 * The one table. Rows in this order: when two RESO fields fill one REST field, the first present fills it and the
 * other is reported in ignored_fields (ClosePrice before ListPrice, LotSizeAcres before LotSizeSquareFeet), unless
 * it is read `with` the first.
 */
export const RESO_FIELDS: readonly ResoField[] = [
  { reso: "ListingKey", type: "string", note: "The report's id; not read (the service gives ids)", report: { field: "id", readOnly: true } },
  { reso: "ListingId", type: "string", note: "The MLS listing number", ...both("mls_id") },
  { reso: "UnparsedAddress", type: "string", note: "Required on input", ...both("address") },
  { reso: "City", type: "string", note: "", ...both("city") },
  { reso: "StateOrProvince", type: "string", note: "", ...both("state") },
  { reso: "PostalCode", type: "string", note: "", ...both("zip") },
  {
    reso: "StandardStatus",
    type: "string",
    note:
      "Report (answered only: a new report is a draft, publishing needs reports:publish): draft → Coming Soon, published → Active. Comparable: Closed → sold, Active → active, Pending and Active Under Contract → pending, any other value → off_market",
    report: { field: "status", readOnly: true, out: (b) => REPORT_STATUS_TO_RESO[b.status as string] ?? null },
    comparable: { field: "status", in: comparableStatusIn },
  },
  { reso: "ClosePrice", type: "number", note: "A comparable's price when given (its closed price)", comparable: { field: "price", inOnly: true } },
  { reso: "ListPrice", type: "number", note: "Dollars; a comparable's price when there is no ClosePrice", ...both("price") },
  { reso: "CloseDate", type: "date", note: "A date (2026-06-01, taken as 00:00 UTC) or a date-time", comparable: { field: "sale_date", inOnly: true, in: dateIn } },
  { reso: "DaysOnMarket", type: "integer", note: "", comparable: { field: "days_on_market", inOnly: true } },
  { reso: "BedroomsTotal", type: "integer", note: "", ...both("beds") },
  {
    reso: "BathroomsTotalInteger",
    type: "integer",
    note: "RESO counts a half bath as one bathroom: baths 2.5 is BathroomsTotalInteger 3 with BathroomsHalf 1; read as BathroomsTotalInteger − BathroomsHalf / 2",
    ...both("baths", { out: bathroomsOut, in: bathsIn }),
  },
  { reso: "BathroomsHalf", type: "integer", note: "1 when baths has a half, else 0; read only with BathroomsTotalInteger", ...both("baths", { out: halfBathsOut, with: "BathroomsTotalInteger", alone: false }) },
  { reso: "LivingArea", type: "number", note: "Square feet, whole (rounded on input)", ...both("sqft", { in: livingAreaIn }) },
  {
    reso: "LivingAreaUnits",
    type: "string",
    note: "Square Feet; on input Square Feet (the default) or Square Meters, read only with LivingArea",
    ...both("sqft", { out: (b) => (b.sqft === null || b.sqft === undefined ? null : "Square Feet"), with: "LivingArea", alone: false }),
  },
  { reso: "YearBuilt", type: "integer", note: "", ...both("year_built") },
  { reso: "LotSizeAcres", type: "number", note: "lot_size is in acres", ...both("lot_size") },
  {
    reso: "LotSizeSquareFeet",
    type: "number",
    note: `Read when there is no LotSizeAcres: ÷ ${SQUARE_FEET_PER_ACRE.toLocaleString("en-US")} to acres`,
    ...both("lot_size", { inOnly: true, in: (v) => (v === null ? null : (v as number) / SQUARE_FEET_PER_ACRE) }),
  },
  {
    reso: "PropertyType",
    type: "string",
    note: `With PropertySubType, from property_type: ${PROPERTY_TYPE_TABLE.map((r) => `${r.value} → ${r.type}${r.subType ? ` / ${r.subType}` : ""}`).join(", ")}, each also from its common spellings (any case, spaces or hyphens: "Single Family Home", "SFR", "Condominium", "Townhome", "Multi-Family"); other text is PropertySubType alone`,
    report: { field: "property_type", out: (b) => propertyTypeOut(b.property_type).type, in: propertyTypeIn },
  },
  {
    reso: "PropertySubType",
    type: "string",
    note: "See PropertyType",
    report: { field: "property_type", out: (b) => propertyTypeOut(b.property_type).subType, in: propertyTypeIn, with: "PropertyType" },
  },
  { reso: "PublicRemarks", type: "string", note: "", report: { field: "description" } },
  { reso: "ListAgentFullName", type: "string", note: "", report: { field: "listing_agent" } },
  { reso: "ModificationTimestamp", type: "date-time", note: "Not read", report: { field: "updated_at", readOnly: true } },
  { reso: "Latitude", type: "number", note: "", comparable: { field: "latitude", inOnly: true } },
  { reso: "Longitude", type: "number", note: "", comparable: { field: "longitude", inOnly: true } },
];

const RESO_NAMES = new Set(RESO_FIELDS.map((row) => row.reso));

/** A report (its REST body, as GET /v1/reports/{reportId} answers it) as a RESO Property record. */
export function reportToReso(report: Body): Body {
  const record: Body = {};
  for (const row of RESO_FIELDS) {
    const side = row.report;
    if (side && !side.inOnly) record[row.reso] = side.out ? side.out(report) : (report[side.field] ?? null);
  }
  return record;
}

const TYPE_PROBLEMS = { string: "must be a string", number: "must be a number", integer: "must be a whole number", "date-time": "must be a string", date: "must be a string" };
const hasType = (type: ResoField["type"], value: unknown) =>
  type === "number" ? typeof value === "number" : type === "integer" ? Number.isInteger(value) : typeof value === "string";

/** What a RESO record maps to: a REST body, the RESO name behind each of its fields, and the names not mapped. */
export interface ResoInput {
  body: Body;
  /** REST field → the RESO name it came from (for messages). */
  from: Map<string, string>;
  /** The record's names that were not mapped, in the record's order. */
  ignored: string[];
}

/** A RESO Property record as the REST body of a report or comparable; a 400 names the RESO field at fault. */
export function resoToBody(resource: ResoResource, record: Body): ResoInput {
  if (record.UnparsedAddress === undefined || record.UnparsedAddress === null) fail("UnparsedAddress", "is required");
  const body: Body = {};
  const from = new Map<string, string>();
  const mapped = new Set<string>();
  for (const row of RESO_FIELDS) {
    const side = row[resource];
    const value = record[row.reso];
    if (!side || side.readOnly || !Object.hasOwn(record, row.reso) || value === undefined) continue;
    const filled = side.field in body;
    // read with the row that filled the field (BathroomsHalf with BathroomsTotalInteger), else not mapped
    const readWith = filled && side.with !== undefined && from.get(side.field) === side.with;
    if ((filled && !readWith) || (!filled && side.alone === false)) continue;
    if (value !== null && !hasType(row.type, value)) fail(row.reso, TYPE_PROBLEMS[row.type]);
    if (typeof value === "number" && !(Math.abs(value) <= MAX_NUMBER)) fail(row.reso, `must be within ±${MAX_NUMBER}`); // before any conversion
    mapped.add(row.reso);
    if (readWith) continue;
    body[side.field] = side.in ? side.in(value, record) : value;
    from.set(side.field, row.reso);
  }
  return { body, from, ignored: Object.keys(record).filter((name) => !mapped.has(name)) };
}

/** The create input of a RESO record, with the RESO names for messages (GraphQL field → RESO name). */
export function resoCreateInput(table: FieldTable, resource: ResoResource, record: Body) {
  const { body, from, ignored } = resoToBody(resource, record);
  const { input, spelled } = restToInput(table, "create", body);
  for (const [field, rest] of spelled) spelled.set(field, from.get(rest) ?? rest);
  return { input, spelled, ignored };
}

export const FORMATS = ["json", "reso"] as const;
export type Format = (typeof FORMATS)[number];

/** The `format` query parameter: json (the default) or reso; anything else is a 400. */
export function formatOf(req: Request): Format | undefined {
  const format = queryText(req, "format");
  if (format === undefined || (FORMATS as readonly string[]).includes(format)) return format as Format | undefined;
  throw new RestError(400, `format must be one of ${FORMATS.join(", ")}`);
}

/**
 * The format of a body: `format` when given; without it, reso when the body has RESO names and none of this API's
 * (a body with both is a 400: which is meant cannot be told), else json.
 */
export function bodyFormat(req: Request, table: FieldTable): Format {
  const format = formatOf(req);
  if (format) return format;
  const body = bodyObject(req);
  const reso = Object.keys(body).find((name) => RESO_NAMES.has(name));
  if (reso === undefined) return "json";
  const own = [...restToInput(table, "create", body).spelled.values()][0];
  if (own === undefined) return "reso";
  throw new RestError(400, `The body mixes RESO names (${reso}) and this API's names (${own}); send format=reso or format=json`);
}

// ---- what the routes run (GET /v1/reports/{reportId}, POST /v1/reports, POST /v1/reports/{reportId}/comparables) ----

const REPORT_AS_RESO = operation(`query RestReportReso($id: ID!) { report(id: $id) { ${restSelection(reportFields)} } }`);
const CREATE_REPORT = operation(`mutation RestCreateReportFromReso($input: CreateReportInput!) {
  createReport(input: $input) { ${restSelection(reportFields)} }
}`);
const CREATE_COMPARABLE = operation(`mutation RestCreateComparableFromReso($reportId: ID!, $input: CreateComparableInput!) {
  createComparable(reportId: $reportId, input: $input) { ${restSelection(comparableFields)} }
}`);
/** The GraphQL operation each RESO form runs (for its route's list of operations). */
export const RESO_OPERATIONS = { read: REPORT_AS_RESO, createReport: CREATE_REPORT, createComparable: CREATE_COMPARABLE };

/** A report of the team as a RESO Property record (404 as the report's own read). */
export async function reportAsReso(id: string, context: Context): Promise<Body> {
  const { report } = await run<{ report: Body }>(REPORT_AS_RESO, { id }, context);
  return reportToReso(report);
}

/** A created report or comparable and the record's names not mapped: the answer is { data, message, ignored_fields }. */
export interface ResoCreated {
  data: Body;
  ignored: string[];
}

/** The body of a create from a RESO record. */
export const resoCreated = ({ data, ignored }: ResoCreated, message: string) => ({ data, message, ignored_fields: ignored });

/** Creates a report from the request's RESO record. */
export async function createReportFromReso(req: Request, context: Context): Promise<ResoCreated> {
  const { input, spelled, ignored } = resoCreateInput(reportFields, "report", bodyObject(req));
  const { createReport } = await run<{ createReport: Body }>(CREATE_REPORT, { input }, context, { spelled });
  return { data: createReport, ignored };
}

/** Creates a comparable of a report from the request's RESO record. */
export async function createComparableFromReso(req: Request, reportId: string, context: Context): Promise<ResoCreated> {
  const { input, spelled, ignored } = resoCreateInput(comparableFields, "comparable", bodyObject(req));
  const { createComparable } = await run<{ createComparable: Body }>(CREATE_COMPARABLE, { reportId, input }, context, { spelled });
  return { data: createComparable, ignored };
}

// ---- OpenAPI ----

const zodOf = (type: ResoField["type"]) =>
  type === "number" ? z.number() : type === "integer" ? z.int() : type === "date-time" ? z.iso.datetime() : z.string();

/** The RESO record GET /v1/reports/{reportId}?format=reso answers. */
export function resoPropertySchema() {
  const shape: Record<string, z.ZodType> = {};
  for (const row of RESO_FIELDS) if (row.report && !row.report.inOnly) shape[row.reso] = zodOf(row.type).nullable().meta({ description: noteOf(row, "report") });
  return z.object(shape);
}

/** The RESO record a create of a report or comparable takes (names not in it are accepted and reported ignored). */
export function resoBodySchema(resource: ResoResource) {
  const shape: Record<string, z.ZodType> = {};
  for (const row of RESO_FIELDS) {
    const side = row[resource];
    if (!side || side.readOnly) continue;
    const value = zodOf(row.type === "date-time" ? "string" : row.type).nullable();
    shape[row.reso] = (row.reso === "UnparsedAddress" ? z.string() : value.optional()).meta({ description: noteOf(row, resource) });
  }
  // Other names are taken too (and answered in ignored_fields); like this API's own bodies, the schema does not list them.
  return z.object(shape);
}

const noteOf = (row: ResoField, resource: ResoResource) => [`${resource === "report" ? "Report" : "Comparable"} field ${row[resource]!.field}`, row.note].filter(Boolean).join(". ");

// ---- docs/features/reso.md ----

const cell = (side: Side | undefined, direction: "report" | "comparable") => {
  if (!side) return "—";
  if (direction === "comparable") return `\`${side.field}\``;
  return `\`${side.field}\`${side.readOnly ? " (out only)" : side.inOnly ? " (in only)" : ""}`;
};

/** The mapping table of docs/features/reso.md (test/unit/reso.test.ts checks that the guide holds it). */
export function readmeTable(): string {
  const rows = RESO_FIELDS.map((row) => `| \`${row.reso}\` | ${cell(row.report, "report")} | ${cell(row.comparable, "comparable")} | ${row.note} |`);
  return ["| RESO field | report (out and in) | comparable (in) | notes |", "|---|---|---|---|", ...rows].join("\n");
}
