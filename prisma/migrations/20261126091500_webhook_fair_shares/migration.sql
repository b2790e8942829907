-- Hand-written: partial indexes, which the Prisma schema cannot describe. The delivery worker shares its slots
-- between teams: it finds the teams with events waiting for their deliveries, or with pending attempts, by a skip scan
-- of these indexes (one probe per team), then takes each team's oldest rows. They replace the indexes that listed
-- the same rows oldest first across all teams.
DROP INDEX "webhook_events_fan_out_pending_idx";
CREATE INDEX "webhook_events_fan_out_pending_idx" ON "webhook_events" ("team_id", "created_at") WHERE "fan_out_pending";

DROP INDEX "webhook_deliveries_due_idx";
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" ("team_id", "next_attempt_at") WHERE "status" = 'pending';
