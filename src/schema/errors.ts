// Errors the schema raises on purpose. Each carries an HTTP status in its extensions, which the REST layer maps
// to the error envelope and GraphQL clients read as `extensions.code`. An error about an input field names the
// field through a function of the naming in use, so GraphQL says `yearBuilt …` and REST `year_built …` from one
// error, without rewriting text: `render(nameOf)` speaks any naming; the GraphQL message is its GraphQL rendering.
import { GraphQLError } from "graphql";

/** A path to an input value: argument and field names, list indexes. */
export type InputPath = ReadonlyArray<string | number>;
/** Spells an input path in one interface's names. */
export type NameOf = (path: InputPath) => string;

/**
 * A naming of input paths from a spelling of field names: `comparables[3].price`; the `input` argument of a
 * mutation (the body, in REST) is left out.
 */
export const pathNaming =
  (spell: (field: string) => string): NameOf =>
  (path) =>
    path
      .filter((p, i) => !(i === 0 && p === "input"))
      .reduce<string>((name, p) => (typeof p === "number" ? `${name}[${p}]` : name ? `${name}.${spell(p)}` : spell(p)), "");

/** GraphQL spelling: `yearBuilt`, `comparables[3].price`. */
export const graphqlName: NameOf = pathNaming((field) => field);

export class ApiError extends GraphQLError {
  constructor(
    /** The message in a given naming of input fields. */
    readonly render: (nameOf: NameOf) => string,
    readonly status: number,
    code: string,
    field?: InputPath,
  ) {
    super(render(graphqlName), { extensions: { code, status, ...(field ? { field: graphqlName(field) } : {}) } });
  }
}

const fixed = (message: string) => () => message;

export const badInput = (message: string) => new ApiError(fixed(message), 400, "BAD_USER_INPUT");
/** "<field> <reason>" for the field at `path`; a reason that is a whole sentence (capitalised) stands alone. */
export const badField = (path: InputPath, reason: string) =>
  new ApiError((nameOf) => (/^[A-Z]/.test(reason) ? reason : `${nameOf(path)} ${reason}`), 400, "BAD_USER_INPUT", path);
/** A message that names several fields: `message(nameOf)` spells them. */
export const badFields = (message: (nameOf: NameOf) => string, path?: InputPath) => new ApiError(message, 400, "BAD_USER_INPUT", path);
export const unauthenticated = () => new ApiError(fixed("Invalid API key"), 401, "UNAUTHENTICATED");
/** The auth step's refusal of a request, found after it was admitted (a key changed since: src/auth/key-check.ts). */
export const refusedBy = (refusal: { status: 401 | 429; message: string }) =>
  new ApiError(fixed(refusal.message), refusal.status, refusal.status === 401 ? "UNAUTHENTICATED" : "RATE_LIMITED");
export const permissionDenied = (permission: string) => new ApiError(fixed(`Permission denied: ${permission}`), 403, "FORBIDDEN");
export const notFound = (message: string) => new ApiError(fixed(message), 404, "NOT_FOUND");
export const conflict = (message: string) => new ApiError(fixed(message), 409, "CONFLICT");

const prismaCode = (err: unknown): string | undefined =>
  typeof err === "object" && err !== null ? (err as { code?: string }).code : undefined;

/** Prisma's unique-constraint violation. */
export const isUniqueViolation = (err: unknown): boolean => prismaCode(err) === "P2002";

/**
 * The row a write aimed at is gone (a concurrent delete won the race): P2025 "record to update/delete not found",
 * P2003 a foreign key to a report deleted meanwhile. Callers answer 404 as if it had never existed.
 */
export const isRowGone = (err: unknown): boolean => prismaCode(err) === "P2025" || prismaCode(err) === "P2003";
