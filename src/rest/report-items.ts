// The REST routes of a kind of report item (comparables, insights, social posts), from one description: a report's list and
// create under /v1/reports/{reportId}/<path>, and get/update/delete under /v1/<path>/{id} — each a translation into the
// GraphQL queries and mutations of src/schema/resources/report-items.ts.
import { z } from "zod";
import { restSelection, type FieldTable } from "../schema/fields";
import { operation, type Operation } from "./graphql";
import { pageVariables, queryText } from "./input";
import type { RestRoute, Tag } from "./route";
import { deleteRoute, getRoute, listRoute, oneAt, tableInput, updateRoute, write } from "./route-kinds";

export interface ReportItemsRoutes {
  /** The GraphQL type and its query names (see ReportItemsSpec). */
  type: "Comparable" | "AgentInsight" | "SocialMediaPost";
  one: string;
  many: string;
  /** The path segment, e.g. comparables for /reports/{reportId}/comparables and /comparables/{comparableId}. */
  path: string;
  /** The path parameter of one item, e.g. comparableId. */
  param: string;
  /** The name of an item in messages, e.g. Comparable created successfully. */
  label: string;
  table: FieldTable;
  /** false: no POST of one item nor PATCH (the items are written some other way, e.g. an import). */
  writable?: boolean;
  /** A query parameter of the list passed to the GraphQL list as the argument of the same name, e.g. platform. */
  filter?: string;
  /** The OpenAPI words: tag, singular and plural nouns (comparable / comparables), operationId stem (Comparable). */
  tag: Tag;
  noun: string;
  nouns: string;
  op: string;
  /** The order of the list in words (default: oldest first). */
  order?: string;
  /** The item's schemas: its answer, and its create and update bodies (when writable). */
  response: z.ZodType;
  create?: z.ZodType;
  update?: z.ZodType;
  listQuery?: z.ZodObject;
}

/** The fragment of an item's REST body, named Rest<Type>. */
export const itemFragment = (spec: Pick<ReportItemsRoutes, "type" | "table">) => `fragment Rest${spec.type} on ${spec.type} { ${restSelection(spec.table)} }`;

export const reportIdParam = z.object({ reportId: z.string().meta({ description: "Report uuid" }) });

/** The routes of the kind: a report's list (and create), then get (update) and delete of one item. */
export function reportItemRoutes(spec: ReportItemsRoutes): RestRoute[] {
  const { type, one, many, label, filter, tag, noun, nouns, op } = spec;
  /** "a comparable", "an insight": the noun with its article, for summaries. */
  const aNoun = `${/^[aeiou]/.test(noun) ? "an" : "a"} ${noun}`;
  const writable = spec.writable !== false;
  const fragment = itemFragment(spec);
  const filterVariable = filter ? `, $${filter}: String` : "";
  const filterArgument = filter ? `, ${filter}: $${filter}` : "";
  const LIST: Operation = operation(`query Rest${type}List($reportId: ID!, $limit: Int!, $offset: Int!${filterVariable}) {
    ${many}(reportId: $reportId, limit: $limit, offset: $offset${filterArgument}) { total limit offset items { ...Rest${type} } }
  } ${fragment}`);
  const GET = operation(`query Rest${type}($id: ID!) { ${one}(id: $id) { ...Rest${type} } } ${fragment}`);
  const CREATE = writable && operation(`mutation RestCreate${type}($reportId: ID!, $input: Create${type}Input!) {
    create${type}(reportId: $reportId, input: $input) { ...Rest${type} }
  } ${fragment}`);
  const UPDATE = writable && operation(`mutation RestUpdate${type}($id: ID!, $input: Update${type}Input!) {
    update${type}(id: $id, input: $input) { ...Rest${type} }
  } ${fragment}`);
  const DELETE = operation(`mutation RestDelete${type}($id: ID!) { delete${type}(id: $id) }`);

  const list = `/v1/reports/{reportId}/${spec.path}`;
  const itemParams = z.object({ [spec.param]: z.string().meta({ description: `The ${noun}'s uuid` }) });
  const item = oneAt(`/v1/${spec.path}/{${spec.param}}`, tag, itemParams);

  const routes: Array<RestRoute | false> = [
    listRoute({
      path: list,
      operationId: `list${op}s`,
      tag,
      summary: (needs) => `List a report's ${nouns}, ${spec.order ?? "oldest first"} (needs ${needs})`,
      operation: LIST,
      params: reportIdParam,
      query: spec.listQuery,
      variables: (req) => ({ reportId: req.params.reportId, ...pageVariables(req), ...(filter ? { [filter]: queryText(req, filter) } : {}) }),
      item: spec.response,
      responseDescription: `A page of ${nouns}`,
      cacheable: true,
    }),
    CREATE && {
      method: "post",
      path: list,
      operationId: `create${op}`,
      tag,
      summary: (needs) => `Add ${aNoun} to a report (needs ${needs})`,
      operations: [CREATE],
      params: reportIdParam,
      body: spec.create,
      status: 201,
      answer: { data: spec.response },
      message: `${label} created successfully`,
      responseDescription: `The created ${noun}`,
      run: write(CREATE, tableInput(spec.table, "create"), (req) => ({ reportId: req.params.reportId })),
    },
    getRoute({
      ...item,
      operationId: `get${op}`,
      summary: (needs) => `Get ${aNoun} (needs ${needs})`,
      operation: GET,
      data: spec.response,
      responseDescription: `The ${noun}`,
      cacheable: true,
    }),
    UPDATE &&
      updateRoute({
        ...item,
        operationId: `update${op}`,
        summary: (needs) => `Change the given fields of ${aNoun} (needs ${needs})`,
        operation: UPDATE,
        body: spec.update,
        input: tableInput(spec.table, "update"),
        data: spec.response,
        message: `${label} updated successfully`,
        responseDescription: `The updated ${noun}`,
      }),
    deleteRoute({
      ...item,
      operationId: `delete${op}`,
      summary: (needs) => `Delete ${aNoun} (needs ${needs})`,
      operation: DELETE,
      message: `${label} deleted successfully`,
    }),
  ];
  return routes.filter((route): route is RestRoute => route !== false);
}
