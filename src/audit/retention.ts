// Audit-log entries are kept AUDIT_RETENTION_DAYS (default 365) and then deleted in bulk, like expired
// Idempotency-Key rows (src/http/idempotency.ts): by each process at most once per PRUNE_EVERY_MS, started by a
// write to the log, outside that write's transaction. The table's trigger refuses every UPDATE and DELETE except
// this one, made in a transaction that says it is the retention delete first (migration audit_log_key_roll).
import { config } from "../config";
import { prisma } from "../db";
import { logger } from "../logger";

const PRUNE_EVERY_MS = 10 * 60_000;

/** Deletes the entries older than the retention; answers how many. Exported for tests. */
export function pruneAuditLog(): Promise<number> {
  return prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT set_config('prs.audit_retention', 'on', true)`;
    return tx.$executeRaw`DELETE FROM audit_log WHERE created_at < now() - make_interval(days => ${config.AUDIT_RETENTION_DAYS}::int)`;
  });
}

let lastPrune = 0;
/** Starts a prune when none ran in this process for PRUNE_EVERY_MS; never throws, never waits. */
export function pruneAuditLogNowAndThen(): void {
  const now = Date.now();
  if (now - lastPrune < PRUNE_EVERY_MS) return;
  lastPrune = now;
  // After the current turn: the recording transaction goes on without waiting for this one.
  setImmediate(() => void pruneAuditLog().catch((err: unknown) => logger.warn({ err }, "pruning the audit log failed")));
}
