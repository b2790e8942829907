// Errors the schema raises on purpose. Each carries an HTTP status in its extensions, which the REST layer maps
// to the error envelope and GraphQL clients read as `extensions.code`.
import { GraphQLError } from "graphql";

export class ApiError extends GraphQLError {
  constructor(
    message: string,
    readonly status: number,
    code: string,
  ) {
    super(message, { extensions: { code, status } });
  }
}

export const badInput = (message: string) => new ApiError(message, 400, "BAD_USER_INPUT");
export const unauthenticated = () => new ApiError("Invalid API key", 401, "UNAUTHENTICATED");
export const permissionDenied = (permission: string) => new ApiError(`Permission denied: ${permission}`, 403, "FORBIDDEN");
export const notFound = (message: string) => new ApiError(message, 404, "NOT_FOUND");
export const conflict = (message: string) => new ApiError(message, 409, "CONFLICT");

/** Prisma's unique-constraint violation. */
export const isUniqueViolation = (err: unknown): boolean =>
  typeof err === "object" && err !== null && (err as { code?: string }).code === "P2002";
