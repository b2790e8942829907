-- DropIndex
DROP INDEX "webhook_deliveries_due_idx";

-- AlterTable
ALTER TABLE "webhook_events" ADD COLUMN     "fan_out_pending" BOOLEAN NOT NULL DEFAULT false;

-- Hand-written: partial indexes, which the Prisma schema cannot describe. The delivery worker looks for the events
-- whose deliveries are still to be made, and for the pending attempts that are due, oldest first: a few rows among
-- many, found without reading the others.
CREATE INDEX "webhook_events_fan_out_pending_idx" ON "webhook_events" ("created_at") WHERE "fan_out_pending";
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" ("next_attempt_at") WHERE "status" = 'pending';
