// The service's database and Prisma client, module singletons opened from the configuration.
import { config } from "../config";
import { openDatabase } from "./open";

export const database = openDatabase({
  url: config.DATABASE_URL,
  dataDir: config.PGLITE_DATA_DIR,
  templateFile: config.PGLITE_TEMPLATE,
  poolSize: config.DATABASE_POOL_SIZE,
  statementTimeoutMs: config.DB_TIMEOUT_MS,
  queryEvents: config.SQL_STATEMENT_EVENTS,
});
export const prisma = database.prisma;
