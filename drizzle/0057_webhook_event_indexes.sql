DROP INDEX "webhook_events_seq_key";--> statement-breakpoint
DROP INDEX "webhook_events_created_idx";--> statement-breakpoint
CREATE INDEX "webhook_events_created_idx" ON "webhook_events" USING brin ("created_at");