// Reads priced by cost (docs/api.md "Read cost"). Every GraphQL operation and REST request costs points, counted in a
// points budget per key and UTC clock hour beside the request rate limit (rate-limit.ts, same stores: in Redis when
// REDIS_URL is set, so every process shares one budget). A read's price comes from the estimate the GraphQL limits
// already make of the operation (src/schema/limits.ts): a floor of 1 point, one more per 100 objects it can return and
// one more per MiB of its estimated answer (long text fields priced as the size limit prices them). A mutation costs one
// point per root field, as in the request rate limit (request-cost.ts). The price is charged before the operation
// runs, all of it or none. READ_COST_MODE=measure (the default) counts and shows it without refusing anything;
// enforce answers 429 THROTTLED, naming the budget, once the hour's points cannot pay for a request.
// GraphQL answers carry extensions.cost (Shopify's shape); REST answers the header X-Cost.
import type { NextFunction, Request, Response } from "express";
import { GraphQLError, type DocumentNode, type GraphQLSchema } from "graphql";
import { LRUCache } from "lru-cache";
import onHeaders from "on-headers";
import { z } from "zod";
import { config } from "../config";
import type { Context } from "../context";
import { requestCost } from "../auth/request-cost";
import { operationEstimate } from "./limits";

const points = z.coerce.number().int().positive();
const settingsSchema = z.object({
  READ_COST_MODE: z.enum(["measure", "enforce"]).default("measure"),
  READ_POINTS_FREE: points.default(1_000),
  READ_POINTS_STANDARD: points.default(20_000),
  READ_POINTS_PRO: points.default(100_000),
  READ_POINTS_ENTERPRISE: points.default(500_000),
});

/** The read-cost settings from the environment (README "Configuration"); a bad one stops the process with its name. */
function loadSettings(env: NodeJS.ProcessEnv = process.env) {
  const parsed = settingsSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== "")));
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message} (got ${JSON.stringify(env[String(i.path[0])])})`);
  process.stderr.write(`Invalid configuration: ${problems.join("; ")}\n`);
  process.exit(1);
}

void config; // the environment file is read by config (src/env-file.ts) before these settings are
export const READ_COST_SETTINGS = loadSettings();

/** Points per key and clock hour for each tier. */
export const POINT_TIERS: Record<string, number> = {
  free: READ_COST_SETTINGS.READ_POINTS_FREE,
  standard: READ_COST_SETTINGS.READ_POINTS_STANDARD,
  pro: READ_COST_SETTINGS.READ_POINTS_PRO,
  enterprise: READ_COST_SETTINGS.READ_POINTS_ENTERPRISE,
};
export const pointsBudget = (tier: string): number => POINT_TIERS[tier] ?? POINT_TIERS.standard;

/** The formula's constants: floor + objects / objectsPerPoint + bytes / bytesPerPoint, each quotient rounded down. */
export const COST = { floor: 1, objectsPerPoint: 100, bytesPerPoint: 1024 * 1024 } as const;

/** A read's price from the limits' estimate of its objects (complexity) and answer size in bytes. */
export const readPrice = (estimate: { complexity: number; bytes: number } | undefined): number =>
  estimate ? COST.floor + Math.floor(estimate.complexity / COST.objectsPerPoint) + Math.floor(estimate.bytes / COST.bytesPerPoint) : COST.floor;

/** The name of a key's points budget in the rate limiter's store (its requests' budget is `rateKey`). */
export const pointsKey = (rateKey: string): string => `points:${rateKey}`;

export interface CostExtension {
  requestedQueryCost: number;
  actualQueryCost: number;
  throttleStatus: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
}

/** What a request was charged, and the budget after it. */
interface CostState {
  requested: number;
  actual: number;
  maximum: number;
  available: number;
  resetsAt: number;
  refused?: boolean;
}

const states = new WeakMap<object, CostState>();

/** extensions.cost of a charge. restoreRate: the budget per second, on average (it comes back whole each clock hour). */
export const extensionOf = (state: CostState): CostExtension => ({
  requestedQueryCost: state.requested,
  actualQueryCost: state.actual,
  throttleStatus: {
    maximumAvailable: state.maximum,
    currentlyAvailable: state.available,
    restoreRate: Math.round((state.maximum / 3600) * 100) / 100,
  },
});

const throttled = (state: CostState, price: number, retryAfter: number) =>
  new GraphQLError(
    `Read cost budget exhausted: this request costs ${price} points and ${state.available} of the key's ${state.maximum} points for this hour are left (the budget starts anew at ${new Date(state.resetsAt * 1000).toISOString()}). Ask for fewer objects or smaller pages, or try again later.`,
    { extensions: { code: "THROTTLED", status: 429, http: { status: 429, headers: { "Retry-After": String(retryAfter) } }, cost: extensionOf(state) } },
  );

/**
 * Charges `price` points to the request's key: all of them, or (enforce mode, past the budget) none and the error to
 * answer. Null for a request without a key budget. Several charges of one request (a REST route running two
 * documents) add up.
 */
export async function charge(context: Context | undefined, price: number): Promise<{ state: CostState; refused?: GraphQLError } | null> {
  const { viewer, rateLimiter, rateKey } = context ?? {};
  if (!context || !viewer || !rateLimiter || !rateKey) return null;
  const maximum = pointsBudget(viewer.tier);
  const enforce = READ_COST_SETTINGS.READ_COST_MODE === "enforce";
  const counted = await rateLimiter.hitWithin(pointsKey(rateKey), price, enforce ? maximum : Number.MAX_SAFE_INTEGER, undefined, maximum);
  const before = states.get(context);
  const state: CostState = {
    requested: (before?.requested ?? 0) + price,
    actual: (before?.actual ?? 0) + (counted.taken ? price : 0),
    maximum,
    available: Math.max(0, maximum - counted.count),
    resetsAt: counted.resetsAt,
    refused: !counted.taken,
  };
  states.set(context, state);
  if (counted.taken) return { state };
  return { state, refused: throttled(state, price, Math.max(1, counted.resetsAt - Math.floor(Date.now() / 1000))) };
}

/** The cost extension of what the request with this context was charged, if anything. */
export const costOf = (context: unknown): CostExtension | undefined => {
  const state = typeof context === "object" && context !== null ? states.get(context) : undefined;
  return state && extensionOf(state);
};

// ---- REST: each document a route runs is priced the same way; the estimate of a route's document is kept ----

/** Prices by document and the variables an estimate can depend on (page sizes, flags): ids and text do not. */
const restPrices = new WeakMap<DocumentNode, LRUCache<string, number>>();

function restPrice(schema: GraphQLSchema, document: DocumentNode, context: Context, variables: Record<string, unknown>): number {
  let prices = restPrices.get(document);
  if (!prices) restPrices.set(document, (prices = new LRUCache({ max: 200 })));
  let key = "";
  for (const name in variables) {
    const value = variables[name];
    if (typeof value !== "string") key += `${name}=${JSON.stringify(value)};`;
  }
  let price = prices.get(key);
  if (price === undefined) {
    price = readPrice(operationEstimate(schema, document, context, variables));
    prices.set(key, price);
  }
  return price;
}

/**
 * Charges a REST route's document before it runs: a query its price, a mutation one point per root field. The
 * refusal's message when enforce mode refuses it (answered 429), else undefined.
 */
export async function chargeRestDocument(
  schema: GraphQLSchema,
  document: DocumentNode,
  kind: "query" | "mutation",
  context: Context,
  variables: Record<string, unknown>,
): Promise<string | undefined> {
  if (!context.viewer) return undefined;
  const price = kind === "mutation" ? requestCost(schema, document, undefined, variables) : restPrice(schema, document, context, variables);
  const charged = await charge(context, price);
  return charged?.refused?.message;
}

/** Counts a request's floor point without waiting (a 304, or an answer that ran no document). */
function chargeFloor(context: Context): void {
  if (states.has(context)) return;
  states.set(context, { requested: COST.floor, actual: COST.floor, maximum: 0, available: 0, resetsAt: 0 });
  const { rateLimiter, rateKey, viewer } = context;
  if (rateLimiter && rateKey) void rateLimiter.hitWithin(pointsKey(rateKey), COST.floor, Number.MAX_SAFE_INTEGER, undefined, viewer ? pointsBudget(viewer.tier) : undefined).catch(() => undefined);
}

/**
 * REST (a middleware before the routes): every answer of a request with a key carries X-Cost, the points it was charged (a request that ran no
 * document, such as a 304, costs the floor; one refused for its cost, nothing), and a refusal for cost Retry-After.
 * Set as the status line is written.
 */
export const restCosts =
  () =>
  (_req: Request, res: Response, next: NextFunction): void => {
    costHeader(res, res.locals.context as Context | undefined);
    next();
  };

function costHeader(res: Response, context: Context | undefined): void {
  if (!context?.viewer) return;
  onHeaders(res, () => {
    if (!states.has(context)) chargeFloor(context);
    const state = states.get(context)!;
    res.setHeader("X-Cost", String(state.actual));
    if (state.refused) res.setHeader("Retry-After", String(Math.max(1, state.resetsAt - Math.floor(Date.now() / 1000))));
  });
}

// ---- GraphQL GET answers from the HTTP cache (src/yoga/use-http-cache.ts) ----

const EXTENSIONS = Buffer.from(',"extensions":');

/**
 * A kept answer sent again costs what it cost when it was built (its requestedQueryCost): charged now, and its
 * extensions.cost written anew. The body to send, or the refusal (enforce mode) to answer instead.
 */
export async function chargeCachedAnswer(context: Context, body: Buffer): Promise<Buffer | GraphQLError> {
  const at = body.lastIndexOf(EXTENSIONS);
  let extensions: { cost?: CostExtension } | undefined;
  try {
    extensions = at < 0 ? undefined : JSON.parse(body.subarray(at + EXTENSIONS.length, body.length - 1).toString());
  } catch {
    extensions = undefined;
  }
  const charged = await charge(context, extensions?.cost?.requestedQueryCost ?? COST.floor);
  if (!charged) return body;
  if (charged.refused) return charged.refused;
  const fresh = JSON.stringify({ ...extensions, cost: extensionOf(charged.state) });
  const head = extensions ? body.subarray(0, at) : body.subarray(0, body.length - 1);
  return Buffer.concat([head, Buffer.from(`,"extensions":${fresh}}`)]);
}

/** A GraphQL GET answered 304: it costs the floor point (counted, never refused). */
export const chargeNotModified = (context: Context): void => chargeFloor(context);
