// Strict scalars, the same for both interfaces: what one accepts, the other accepts (docs/api.md "Robustness").
import { GraphQLError } from "graphql";
import { GraphQLDateTime, GraphQLSafeInt } from "graphql-scalars";
import { builder } from "./builder";

// The description of the scalar says the rest: an offset is required, years 1 to 9999.
const DATE_TIME_REASON = "must be an ISO 8601 date-time";

/**
 * An RFC 3339 date-time with an offset (graphql-scalars checks the form), whose UTC year is 1..9999, so that every
 * stored value can be read back and printed. A thrown error's message is the reason alone; the caller names the field.
 */
export function parseDateTime(value: unknown): Date {
  let date: Date;
  try {
    if (typeof value !== "string") throw new Error();
    date = GraphQLDateTime.parseValue(value) as Date;
  } catch {
    throw new GraphQLError(DATE_TIME_REASON);
  }
  const year = date.getUTCFullYear();
  if (year < 1 || year > 9999) throw new GraphQLError(DATE_TIME_REASON);
  return date;
}

builder.scalarType("DateTime", {
  description: "An ISO 8601 (RFC 3339) date-time with an offset, e.g. 2026-05-01T14:00:00Z; years 1 to 9999",
  specifiedByURL: "https://datatracker.ietf.org/doc/html/rfc3339",
  serialize: (value) => (value instanceof Date ? value.toISOString() : String(value)),
  parseValue: parseDateTime,
});

builder.scalarType("JSON", {
  description: "Any JSON value",
  serialize: (value) => value,
  parseValue: (value) => value,
});

// Counts that outgrow Int (2^31 - 1), such as a video's views: integers up to 2^53 - 1, exact in JSON.
builder.addScalarType("SafeInt", GraphQLSafeInt);
