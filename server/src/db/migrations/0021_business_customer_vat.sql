ALTER TABLE "contracts" ADD COLUMN "company_name" text;--> statement-breakpoint
ALTER TABLE "contracts" ADD COLUMN "customer_vat_id" text;--> statement-breakpoint
ALTER TABLE "contracts" ADD COLUMN "buyer_reference" text;--> statement-breakpoint
-- The VAT rate (vat_id) is now what a contract's bills are made at, and the API takes 19, 7 or 0
-- only. Stored rates are written as the API writes them ('07' → '7'); any other value (until now
-- every bill was made at 19 % whatever it said) becomes none, which bills at 19 % as before.
UPDATE "contracts" SET "vat_id" = CASE
  WHEN btrim("vat_id") ~ '^[0-9]{1,3}$' THEN CASE WHEN btrim("vat_id")::int IN (0, 7, 19) THEN (btrim("vat_id")::int)::text END
END
WHERE "vat_id" IS NOT NULL AND "vat_id" NOT IN ('0', '7', '19');
