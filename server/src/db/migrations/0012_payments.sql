CREATE TABLE "payment_checkouts" (
	"session_id" text PRIMARY KEY NOT NULL,
	"contract_key" text NOT NULL,
	"purpose" text NOT NULL,
	"provider" text NOT NULL,
	"url" text NOT NULL,
	"customer_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"account_holder" text,
	"iban_last4" text,
	"payment_method_id" text,
	"mandate_reference" text,
	CONSTRAINT "payment_checkouts_purpose_chk" CHECK (purpose in ('configure', 'reconfigure')),
	CONSTRAINT "payment_checkouts_provider_chk" CHECK (provider in ('stripe', 'test'))
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contracts" ADD COLUMN "contract_mandate_date" date;--> statement-breakpoint
ALTER TABLE "contracts" ADD COLUMN "stripe_customer_id" text;--> statement-breakpoint
ALTER TABLE "contracts" ADD COLUMN "stripe_payment_method_id" text;--> statement-breakpoint
ALTER TABLE "contracts" ADD COLUMN "stripe_mandate_completed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_checkouts" ADD CONSTRAINT "payment_checkouts_contract_key_contracts_contract_key_fk" FOREIGN KEY ("contract_key") REFERENCES "public"."contracts"("contract_key") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_checkouts_contract_idx" ON "payment_checkouts" USING btree ("contract_key");