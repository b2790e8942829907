// Every test file gets its own in-memory PGlite (from the template made in global-setup), unless DATABASE_URL
// points the whole suite at PostgreSQL. Set before any module of the service is loaded.
process.env.PGLITE_DATA_DIR = "memory://";
process.env.SQL_STATEMENT_EVENTS = "true";
process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? "silent";
process.env.USAGE_FLUSH_MS = process.env.USAGE_FLUSH_MS ?? "200";
