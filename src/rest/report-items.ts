// The REST routes of a kind of report item (comparables, insights, social posts), from one description: a report's list and
// create under /reports/{reportId}/<path>, and get/update/delete under /<path>/{id} — each a translation into the
// GraphQL queries and mutations of src/schema/resources/report-items.ts.
import { Router, type Request } from "express";
import type { Context } from "../context";
import { restSelection, type FieldTable } from "../schema/fields";
import { operation, run, type Operation } from "./graphql";
import { jsonBody, pageBody, pageVariables, queryText, runWithBody, type Page } from "./input";
import { allowOnly, handle } from "./route";

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
  /** Answers a create in a form of its own when it returns a body (e.g. from a RESO record); else the usual create runs. */
  createOtherwise?: (req: Request, context: Context) => Promise<Record<string, unknown> | undefined>;
}

/** The fragment of an item's REST body, named Rest<Type>. */
export const itemFragment = (spec: Pick<ReportItemsRoutes, "type" | "table">) => `fragment Rest${spec.type} on ${spec.type} { ${restSelection(spec.table)} }`;

/**
 * The routes; `more` adds routes of the same paths before the 405 answers (e.g. PUT of a whole set), naming the
 * methods they serve.
 */
export function reportItemsRouter(spec: ReportItemsRoutes, more?: { list?: { methods: string[]; add: (router: Router, path: string) => void } }): Router {
  const { type, one, many, label, filter } = spec;
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

  const router = Router();
  const list = `/reports/:reportId/${spec.path}`;
  router.get(
    list,
    handle(async (req, res) => {
      const data = await run<Record<string, Page<unknown>>>(
        LIST,
        {
          reportId: req.params.reportId,
          ...pageVariables(req),
          ...(filter ? { [filter]: queryText(req, filter) } : {}),
        },
        res.locals.context,
      );
      res.json(pageBody(data[many]));
    }),
  );
  /** A create or update: the body as the mutation's input, answered with the item and a message. */
  const write = (op: Operation, mode: "create" | "update", variables: (req: Request) => Record<string, unknown>, status: 200 | 201) =>
    handle(async (req, res) => {
      const other = mode === "create" ? await spec.createOtherwise?.(req, res.locals.context) : undefined;
      if (other) return void res.status(status).json(other);
      const data = await runWithBody<Record<string, unknown>>(op, req, res.locals.context, { table: spec.table, mode, variables: variables(req) });
      res.status(status).json({ data: data[`${mode}${type}`], message: `${label} ${mode}d successfully` });
    });
  if (CREATE) router.post(list, jsonBody, write(CREATE, "create", (req) => ({ reportId: req.params.reportId }), 201));
  more?.list?.add(router, list);
  allowOnly(router, list, ["GET", ...(writable ? ["POST"] : []), ...(more?.list?.methods ?? [])]);

  const item = `/${spec.path}/:${spec.param}`;
  router.get(
    item,
    handle(async (req, res) => {
      const data = await run<Record<string, unknown>>(GET, { id: req.params[spec.param] }, res.locals.context);
      res.json({ data: data[one] });
    }),
  );
  if (UPDATE) router.patch(item, jsonBody, write(UPDATE, "update", (req) => ({ id: req.params[spec.param] }), 200));
  router.delete(
    item,
    handle(async (req, res) => {
      await run(DELETE, { id: req.params[spec.param] }, res.locals.context);
      res.json({ message: `${label} deleted successfully` });
    }),
  );
  allowOnly(router, item, writable ? ["GET", "PATCH", "DELETE"] : ["GET", "DELETE"]);
  return router;
}
