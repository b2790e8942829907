// The kinds of route most resources repeat: a page of a list, one thing read, a change to one, its deletion, and an
// action on one. Each is made from what differs between resources — the words that place it in the document (path,
// operationId, tag, summary), the GraphQL operation it runs with the variables it reads from the request, and the
// schema of what it answers — so a declaration says only that. A route of a shape of its own is declared in full
// (./route.ts says what each field holds).
import type { Request, Response } from "express";
import type { z } from "zod";
import { restToInput, type FieldTable } from "../schema/fields";
import { runRoot, type Operation, type RunOptions } from "./graphql";
import { bodyObject, optionalBodyObject } from "./input";
import { bodyToInput, type inputNames } from "./object-shapes";
import type { RestRoute, Tag } from "./route";
import * as s from "./schemas";

/** What a route of any of these kinds declares as RestRoute has it: its place and words in the document, its path parameters. */
type Declared = Pick<RestRoute, "path" | "operationId" | "tag" | "summary" | "description" | "params">;

/** The variables of a route's operation, read from its request. */
export type Variables = (req: Request) => Record<string, unknown>;

/**
 * One thing of a resource as the routes acting on it name it: its path (/v1/webhooks/{webhookId}), tag, path
 * parameters, and the variables that name it to the operations ({ id }).
 */
export interface One {
  path: string;
  tag: Tag;
  params: z.ZodObject;
  variables: Variables;
}

/** One thing at `path`, named to the operations by the path's last parameter: /v1/webhooks/{webhookId} → { id: webhookId }. */
export function oneAt(path: string, tag: Tag, params: z.ZodObject): One {
  const param = /\{(\w+)\}$/.exec(path)?.[1];
  if (!param) throw new Error(`${path} does not end in a parameter`);
  return { path, tag, params, variables: (req) => ({ id: req.params[param] }) };
}

/** The GraphQL operation a route runs, its variables, and how its errors name what the client sent. */
interface Runs {
  operation: Operation;
  variables: Variables;
  options?: RunOptions;
}

/** Runs the operation and answers its root field's value. */
const runs =
  ({ operation, variables, options }: Runs) =>
  (req: Request, res: Response) =>
    runRoot(operation, variables(req), res.locals.context, options);

export interface ListRoute extends Declared, Runs, Pick<RestRoute, "cacheable" | "responseDescription"> {
  /** The schema of one item of the page. */
  item: z.ZodType;
  /** The list's query parameters: limit and offset (the default), with its own filters beside them. */
  query?: z.ZodObject;
  /** Error statuses besides 400, which every list answers for a limit or offset out of bounds. */
  errors?: number[];
}

/** A page of a list: GET, answered as `{ data, total, limit, offset }`; `variables` reads the page (pageVariables). */
export const listRoute = ({ operation, variables, options, item, query, errors, ...route }: ListRoute): RestRoute => ({
  method: "get",
  ...route,
  operations: [operation],
  query: query ?? s.pageQuery,
  answer: { page: item },
  errors: [400, ...(errors ?? [])],
  run: runs({ operation, variables, options }),
});

export interface GetRoute extends Declared, Runs, Pick<RestRoute, "cacheable" | "responseDescription" | "errors"> {
  /** The schema of what it reads. */
  data: z.ZodType;
}

/** One thing read (an item by its id, a report's valuation, the key's own user): GET, answered as `{ data }`. */
export const getRoute = ({ operation, variables, options, data, ...route }: GetRoute): RestRoute => ({
  method: "get",
  ...route,
  operations: [operation],
  answer: { data },
  run: runs({ operation, variables, options }),
});

/** A write's body as the mutation's `input`, with the spellings the client used for its fields (messages name them so). */
export type BodyInput = (req: Request) => { input: Record<string, unknown>; spelled?: ReadonlyMap<string, string> };

/** The body of a resource declared by a field table (src/schema/resources/<r>/fields.ts), for a create or an update. */
export const tableInput =
  (table: FieldTable, mode: "create" | "update"): BodyInput =>
  (req) =>
    restToInput(table, mode, bodyObject(req));

/** The body under the REST names of a GraphQL input type's fields (./object-shapes.ts); `spelled`: names REST spells its own way. */
export const namedInput =
  (names: ReturnType<typeof inputNames>, spelled?: ReadonlyMap<string, string>): BodyInput =>
  (req) => ({ input: bodyToInput(names, bodyObject(req)), spelled });

/** The `run` of a create or update: the body as the mutation's `input` beside `variables`, answered with its root field. */
export const write =
  <Value = unknown>(operation: Operation, input: BodyInput, variables?: Variables) =>
  (req: Request, res: Response): Promise<Value> => {
    const named = variables?.(req);
    const body = input(req);
    return runRoot<Value>(operation, { ...named, input: body.input }, res.locals.context, { spelled: body.spelled });
  };

export interface UpdateRoute extends Declared, Pick<RestRoute, "body" | "message" | "responseDescription" | "errors"> {
  operation: Operation;
  /** The variables naming the thing changed; the body is the mutation's `input` beside them. */
  variables: Variables;
  input: BodyInput;
  /** The schema of the thing changed, as it is answered. */
  data: z.ZodType;
}

/** A change to the given fields of one thing: PATCH, answered with the thing changed and the route's message. */
export const updateRoute = ({ operation, variables, input, data, ...route }: UpdateRoute): RestRoute => ({
  method: "patch",
  ...route,
  operations: [operation],
  answer: { data },
  run: write(operation, input, variables),
});

export interface DeleteRoute extends Declared, Runs {
  message: string;
}

/** A deletion: DELETE, answered with the route's message only. */
export const deleteRoute = ({ operation, variables, options, ...route }: DeleteRoute): RestRoute => ({
  method: "delete",
  ...route,
  operations: [operation],
  answer: "message",
  responseDescription: "Deleted",
  run: async (req, res) => void (await runRoot(operation, variables(req), res.locals.context, options)),
});

export interface ActionRoute extends Declared, Runs, Pick<RestRoute, "status" | "message" | "responseDescription" | "errors"> {
  /** The schema of what the action answers. */
  data: z.ZodType;
}

/**
 * An action on one thing (send a test event, redeliver): POST with nothing to send — a body, when one is sent, must
 * still be a JSON object — answered with `data` and the route's message.
 */
export const actionRoute = ({ operation, variables, options, data, ...route }: ActionRoute): RestRoute => ({
  method: "post",
  ...route,
  operations: [operation],
  answer: { data },
  run: (req, res) => {
    optionalBodyObject(req);
    return runRoot(operation, variables(req), res.locals.context, options);
  },
});
