ALTER TABLE "mail_outbox" DROP CONSTRAINT "mail_outbox_status_chk";--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_status_chk" CHECK (status in ('queued', 'sending', 'sent', 'failed'));