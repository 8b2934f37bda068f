CREATE TABLE "bill_number_counters" (
	"cpo_id" text NOT NULL,
	"year" integer NOT NULL,
	"last_number" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "bill_number_counters_pk" PRIMARY KEY("cpo_id","year")
);
--> statement-breakpoint
CREATE TABLE "contract_tariffs" (
	"contract_key" text NOT NULL,
	"valid_from" date NOT NULL,
	"fix_tariff" numeric(12, 2) DEFAULT '0' NOT NULL,
	"var_tariff" numeric(10, 4) DEFAULT '0' NOT NULL,
	"onboarding_fee" numeric(12, 2) DEFAULT '0' NOT NULL,
	"fix_tariff_per_charging_request" numeric(12, 2) DEFAULT '0' NOT NULL,
	CONSTRAINT "contract_tariffs_pk" PRIMARY KEY("contract_key","valid_from")
);
--> statement-breakpoint
ALTER TABLE "bills" ADD COLUMN "net_costs" numeric(12, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "bills" ADD COLUMN "vat_percent" numeric(5, 2) DEFAULT '19' NOT NULL;--> statement-breakpoint
ALTER TABLE "bills" ADD COLUMN "vat_costs" numeric(12, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "bills" ADD COLUMN "lines" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "bills" ADD COLUMN "charging_request_id" text;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "vat_id" text;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "tax_number" text;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "bill_number_prefix" text;--> statement-breakpoint
ALTER TABLE "bill_number_counters" ADD CONSTRAINT "bill_number_counters_cpo_id_operators_cpo_id_fk" FOREIGN KEY ("cpo_id") REFERENCES "public"."operators"("cpo_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_tariffs" ADD CONSTRAINT "contract_tariffs_contract_key_contracts_contract_key_fk" FOREIGN KEY ("contract_key") REFERENCES "public"."contracts"("contract_key") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bills_contract_period_uq" ON "bills" USING btree ("contract_key","start_date","end_date") WHERE charging_request_id is null;--> statement-breakpoint
CREATE UNIQUE INDEX "bills_charging_request_uq" ON "bills" USING btree ("charging_request_id");--> statement-breakpoint
-- Tariff history from what the database still knows: each applied tariff change from its day, and
-- the contract's tariff from its start where no change has been applied yet (before this
-- migration an applied change overwrote the tariff it replaced).
INSERT INTO "contract_tariffs" ("contract_key", "valid_from", "fix_tariff", "var_tariff", "onboarding_fee", "fix_tariff_per_charging_request")
SELECT "contract_key", "new_tariff_date", "fix_tariff", "var_tariff", "onboarding_fee", "fix_tariff_per_charging_request"
FROM "pending_tariff_changes" WHERE "applied_at" IS NOT NULL
ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "contract_tariffs" ("contract_key", "valid_from", "fix_tariff", "var_tariff", "onboarding_fee", "fix_tariff_per_charging_request")
SELECT c."contract_key", coalesce(c."start_date", (c."created_at" AT TIME ZONE 'Europe/Berlin')::date), coalesce(c."fix_tariff", 0), coalesce(c."var_tariff", 0), c."onboarding_fee", c."fix_tariff_per_charging_request"
FROM "contracts" c
WHERE NOT EXISTS (SELECT 1 FROM "pending_tariff_changes" p WHERE p."contract_key" = c."contract_key" AND p."applied_at" IS NOT NULL)
ON CONFLICT DO NOTHING;
