CREATE TABLE "sepa_mandate_changes" (
	"contract_key" text PRIMARY KEY NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "erp_values" DROP CONSTRAINT "erp_values_method_chk";--> statement-breakpoint
ALTER TABLE "erp_values" ADD COLUMN "clearing_account_nr" text;--> statement-breakpoint
ALTER TABLE "sepa_mandate_collections" ADD COLUMN "sequence_type" text;--> statement-breakpoint
ALTER TABLE "sepa_mandate_changes" ADD CONSTRAINT "sepa_mandate_changes_contract_key_contracts_contract_key_fk" FOREIGN KEY ("contract_key") REFERENCES "public"."contracts"("contract_key") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erp_values" ADD CONSTRAINT "erp_values_method_chk" CHECK (payment_method in ('BANK_TRANSFER', 'STRIPE_SEPA', 'SEPA', 'STRIPE_CARD'));--> statement-breakpoint
ALTER TABLE "sepa_mandate_collections" ADD CONSTRAINT "sepa_mandate_collections_sequence_type_chk" CHECK (sequence_type is null or sequence_type in ('FRST', 'RCUR'));--> statement-breakpoint
-- Files made before: the date a mandate was first made for is its FRST, every other date's RCUR (the rule until now).
UPDATE "sepa_mandate_collections" c SET "sequence_type" = CASE WHEN c."collection_date" = f."collection_date" THEN 'FRST' ELSE 'RCUR' END
FROM (
  SELECT DISTINCT ON ("cpo_id", "mandate_reference", "iban") "cpo_id", "mandate_reference", "iban", "collection_date"
  FROM "sepa_mandate_collections" ORDER BY "cpo_id", "mandate_reference", "iban", "made_at", "collection_date"
) f
WHERE c."cpo_id" = f."cpo_id" AND c."mandate_reference" = f."mandate_reference" AND c."iban" = f."iban";
--> statement-breakpoint
-- A contract's mandate changes when its reference or its IBAN does (as the SEPA file compares them: trimmed, IBAN compacted).
CREATE FUNCTION "sepa_mandate_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "sepa_mandate_changes" ("contract_key", "changed_at") VALUES (NEW."contract_key", now())
  ON CONFLICT ("contract_key") DO UPDATE SET "changed_at" = excluded."changed_at";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "sepa_mandate_changed" AFTER UPDATE OF "contract_mandate_reference", "contract_iban" ON "contracts" FOR EACH ROW
  WHEN (
    btrim(coalesce(OLD."contract_mandate_reference", '')) IS DISTINCT FROM btrim(coalesce(NEW."contract_mandate_reference", ''))
    OR upper(regexp_replace(coalesce(OLD."contract_iban", ''), '[^A-Za-z0-9]', '', 'g'))
      IS DISTINCT FROM upper(regexp_replace(coalesce(NEW."contract_iban", ''), '[^A-Za-z0-9]', '', 'g'))
  )
  EXECUTE FUNCTION "sepa_mandate_changed"();
