// What a database failure means for the client: the database cannot be reached (503, retry later) or a statement
// ran past its time budget (504). Errors reach us in many wrappings — pg's own errors and socket errors, Prisma's
// known-request errors (P1001, P1017, …) and its driver-adapter errors (`cause.kind`), AggregateError for a host
// with several addresses, GraphQLError.originalError inside GraphQL execution — so both classifiers walk the chain.

/** pg / Node socket codes and SQLSTATEs that mean "no usable connection to the database". */
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  // SQLSTATE class 08 (connection exception) and 57P01..57P03 (admin/crash shutdown, cannot connect now).
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  "57P01",
  "57P02",
  "57P03",
  "53300", // too many connections
  // Prisma: can't reach server, connection timed out, server closed the connection, pool timeout, too many connections.
  "P1001",
  "P1002",
  "P1008",
  "P1017",
  "P2024",
  "P2037",
]);
/** Prisma driver-adapter error kinds (`DriverAdapterError.cause.kind`) of the same meaning. */
const UNAVAILABLE_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections", "TlsConnectionError"]);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|Client has encountered a connection error|Connection ended unexpectedly|Can't reach database server|Server has closed the connection|timeout exceeded when trying to connect|the database system is (starting up|shutting down|in recovery mode)|terminating connection due to administrator command/i;

/** SQLSTATE 57014 query_canceled: statement_timeout (DB_TIMEOUT_MS) fired. */
const STATEMENT_TIMEOUT = "57014";

type Node = {
  code?: unknown;
  type?: unknown;
  kind?: unknown;
  message?: unknown;
  cause?: unknown;
  originalError?: unknown;
  errors?: unknown;
  meta?: unknown;
  driverAdapterError?: unknown;
};

/** Every error-like object in the chain (depth-limited: chains are short, and a cycle must not hang us). */
function* chain(err: unknown, depth = 0): Generator<Node> {
  if (!err || typeof err !== "object" || depth > 8) return;
  const e = err as Node;
  yield e;
  for (const next of [e.cause, e.originalError, e.meta, e.driverAdapterError]) yield* chain(next, depth + 1);
  if (Array.isArray(e.errors)) for (const inner of e.errors) yield* chain(inner, depth + 1);
}

/**
 * True when `err` (in any wrapping) means the database cannot be reached or dropped the connection: answer 503
 * `Service temporarily unavailable` with `Retry-After: 5`. A failed statement that is the client's or our fault
 * (constraint, syntax) is not one.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (isClientAbort(err)) return false;
  for (const e of chain(err)) {
    if (typeof e.code === "string" && UNAVAILABLE_CODES.has(e.code)) return true;
    if (typeof e.kind === "string" && UNAVAILABLE_KINDS.has(e.kind)) return true;
    if (typeof e.message === "string" && UNAVAILABLE_MESSAGES.test(e.message)) return true;
  }
  return false;
}

/**
 * True when `err` (in any wrapping) is the body parser's "request aborted": the client closed its connection before
 * its request body was read. Its code is ECONNABORTED, as a dropped database socket's may be, but it is the
 * client's doing, never the database's.
 */
export function isClientAbort(err: unknown): boolean {
  for (const e of chain(err)) if (e.type === "request.aborted") return true;
  return false;
}

/** True when `err` (in any wrapping) is a statement cancelled by its time budget: answer 504 `Request timed out`. */
export function isStatementTimeout(err: unknown): boolean {
  for (const e of chain(err)) {
    if (e.code === STATEMENT_TIMEOUT) return true;
    if (typeof e.message === "string" && /canceling statement due to statement timeout/i.test(e.message)) return true;
  }
  return false;
}

/** The answer a database failure gets, or null when it is not one of the two. */
export function databaseFailure(err: unknown): { status: 503 | 504; message: string; retryAfter?: number } | null {
  if (isStatementTimeout(err)) return { status: 504, message: "Request timed out" };
  if (isDatabaseUnavailable(err)) return { status: 503, message: "Service temporarily unavailable", retryAfter: RETRY_AFTER_SECONDS };
  return null;
}

export const RETRY_AFTER_SECONDS = 5;
