CREATE TABLE "sepa_mandate_collections" (
	"cpo_id" text NOT NULL,
	"mandate_reference" text NOT NULL,
	"iban" text NOT NULL,
	"collection_date" date NOT NULL,
	"message_id" text NOT NULL,
	"made_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sepa_mandate_collections_pk" PRIMARY KEY("cpo_id","mandate_reference","iban","collection_date")
);
--> statement-breakpoint
ALTER TABLE "sepa_mandate_collections" ADD CONSTRAINT "sepa_mandate_collections_cpo_id_operators_cpo_id_fk" FOREIGN KEY ("cpo_id") REFERENCES "public"."operators"("cpo_id") ON DELETE no action ON UPDATE no action;