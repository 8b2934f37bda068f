CREATE TABLE "station_import_rows" (
	"import_id" text NOT NULL,
	"batch" integer NOT NULL,
	"row" integer NOT NULL,
	"handed_out" boolean NOT NULL,
	"connector_id" text NOT NULL,
	"cp_id" text NOT NULL,
	"connector_number" integer NOT NULL,
	"cpo_id" text NOT NULL,
	"location_id" text,
	"parking_lot" text,
	"wallbox_model" text NOT NULL,
	"status" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "station_imports" (
	"import_id" text PRIMARY KEY NOT NULL,
	"batches" integer NOT NULL,
	"moved" integer NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "station_import_rows_import_idx" ON "station_import_rows" USING btree ("import_id","batch");