CREATE TABLE "job_locks" (
	"name" text PRIMARY KEY NOT NULL,
	"holder" text,
	"lease_until" timestamp with time zone,
	"started_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"last_duration_ms" integer,
	"last_failure" text
);
--> statement-breakpoint
CREATE TABLE "bill_collections" (
	"bill_id" text PRIMARY KEY NOT NULL,
	"idempotency_key" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_until" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_failure" text,
	"answered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "payment_checkout_requests" (
	"request_id" text PRIMARY KEY NOT NULL,
	"contract_key" text NOT NULL,
	"purpose" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_until" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_failure" text,
	"session_id" text,
	"done_at" timestamp with time zone,
	CONSTRAINT "payment_checkout_requests_purpose_chk" CHECK (purpose in ('configure', 'reconfigure'))
);
--> statement-breakpoint
ALTER TABLE "bill_collections" ADD CONSTRAINT "bill_collections_bill_id_bills_bill_id_fk" FOREIGN KEY ("bill_id") REFERENCES "public"."bills"("bill_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_checkout_requests" ADD CONSTRAINT "payment_checkout_requests_contract_key_contracts_contract_key_fk" FOREIGN KEY ("contract_key") REFERENCES "public"."contracts"("contract_key") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_checkout_requests_open_idx" ON "payment_checkout_requests" USING btree ("created_at") WHERE done_at is null;--> statement-breakpoint
CREATE INDEX "payment_checkout_requests_contract_idx" ON "payment_checkout_requests" USING btree ("contract_key");