// The service's database and Prisma client, module singletons opened from the configuration on first use:
// importing this module opens nothing (the CLI's --help, the schema printer and unit tests never touch a database).
import { configureKeyring } from "../attendees/crypto";
import { config } from "../config";
import { logger } from "../logger";
import type { PrismaClient } from "../generated/prisma/client";
import { sealPlainAttendeeData } from "./attendee-data";
import { openDatabase, type Database } from "./open";

let opened: Database | null = null;

function open(): Database {
  // Attendee contact data is encrypted with this key (src/attendees/crypto.ts); the embedded database keeps a
  // generated one in its data directory.
  if (!opened) configureKeyring(config, (message) => logger.warn(message));
  opened ??= openDatabase({
    url: config.DATABASE_URL,
    directUrl: config.DATABASE_DIRECT_URL,
    preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
    dataDir: config.PGLITE_DATA_DIR,
    templateFile: config.PGLITE_TEMPLATE,
    poolSize: config.DATABASE_POOL_SIZE,
    statementTimeoutMs: config.DB_TIMEOUT_MS,
    queryEvents: config.SQL_STATEMENT_EVENTS,
  });
  return opened;
}

/**
 * Stands in for the object `target()` returns, which it creates on the first property read (`own` properties
 * excepted). Methods are bound to the real object: Prisma's client keeps state a proxy as `this` would not reach.
 */
function lazy<T extends object>(target: () => T, own: Partial<T> = {}, route?: (property: PropertyKey) => T | undefined): T {
  const boundBy = new WeakMap<object, Map<PropertyKey, unknown>>();
  return new Proxy(own as T, {
    get(_, property) {
      if (Object.hasOwn(own, property)) return own[property as keyof T];
      const real = route?.(property) ?? target();
      const value = Reflect.get(real, property, real) as unknown;
      if (typeof value !== "function") return value;
      let bound = boundBy.get(real);
      if (!bound) boundBy.set(real, (bound = new Map()));
      let method = bound.get(property);
      if (!method) bound.set(property, (method = value.bind(real)));
      return method;
    },
    set: (_, property, value) => Reflect.set(target(), property, value),
    has: (_, property) => Reflect.has(target(), property),
  });
}

/** Closing a database nobody opened opens nothing. */
const close = async (): Promise<void> => void (await opened?.close());

/**
 * The migrations, then the data step SQL cannot do: attendee contact data still stored in plain text is encrypted
 * (./attendee-data.ts; nothing to do once done, one scan of the attendee columns).
 */
const migrate = async (dir?: string): Promise<string[]> => {
  const db = open();
  const applied = await db.migrate(dir);
  if (!dir) {
    const sealed = await sealPlainAttendeeData(db.prisma);
    if (Object.values(sealed).some(Boolean)) logger.info({ rows: sealed }, "attendee contact data encrypted");
  }
  return applied;
};

export const database: Database = lazy(open, { close, migrate });
let readClient: (() => PrismaClient | undefined) | undefined;
/**
 * Lets src/db/replicas.ts send the model reads (`prisma.report.findMany`…) of a request it chose a replica for to
 * that replica's client. Transactions and raw statements (`$…`) always run on the primary.
 */
export function routeModelReads(client: () => PrismaClient | undefined): void {
  readClient = client;
}
const modelRead = (property: PropertyKey) => (readClient && typeof property === "string" && !property.startsWith("$") ? readClient() : undefined);

export const prisma: PrismaClient = lazy(() => open().prisma, {}, modelRead);
