CREATE TABLE "charging_request_customer_months" (
	"month" date NOT NULL,
	"cpo_id" text NOT NULL,
	"location_id" text NOT NULL,
	"end_customer_id" text NOT NULL,
	"requests" integer NOT NULL,
	CONSTRAINT "charging_request_customer_months_pk" PRIMARY KEY("cpo_id","month","location_id","end_customer_id")
);
--> statement-breakpoint
-- Keeps charging_request_customer_months current on every write to charging_requests, as 0004 does
-- for the other roll-ups: one statement-level trigger per event with its transition tables; old
-- rows are subtracted, new rows added, upserted in key order. Requests without an end customer
-- count for no one.
CREATE FUNCTION "charging_request_customer_months_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO "charging_request_customer_months" AS r ("month", "cpo_id", "location_id", "end_customer_id", "requests")
    SELECT date_trunc('month', "start_date" AT TIME ZONE 'Europe/Berlin')::date, "cpo_id", "location_id", "end_customer_id", -count(*)
    FROM old_rows WHERE "end_customer_id" IS NOT NULL GROUP BY 1, 2, 3, 4 ORDER BY 2, 1, 3, 4
    ON CONFLICT ("cpo_id", "month", "location_id", "end_customer_id") DO UPDATE SET "requests" = r."requests" + excluded."requests";
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "charging_request_customer_months" AS r ("month", "cpo_id", "location_id", "end_customer_id", "requests")
    SELECT date_trunc('month', "start_date" AT TIME ZONE 'Europe/Berlin')::date, "cpo_id", "location_id", "end_customer_id", count(*)
    FROM new_rows WHERE "end_customer_id" IS NOT NULL GROUP BY 1, 2, 3, 4 ORDER BY 2, 1, 3, 4
    ON CONFLICT ("cpo_id", "month", "location_id", "end_customer_id") DO UPDATE SET "requests" = r."requests" + excluded."requests";
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "charging_request_customer_months_insert" AFTER INSERT ON "charging_requests"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "charging_request_customer_months_apply"();
--> statement-breakpoint
CREATE TRIGGER "charging_request_customer_months_update" AFTER UPDATE ON "charging_requests"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "charging_request_customer_months_apply"();
--> statement-breakpoint
CREATE TRIGGER "charging_request_customer_months_delete" AFTER DELETE ON "charging_requests"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "charging_request_customer_months_apply"();
--> statement-breakpoint
-- Requests written before this migration.
INSERT INTO "charging_request_customer_months" ("month", "cpo_id", "location_id", "end_customer_id", "requests")
SELECT date_trunc('month', "start_date" AT TIME ZONE 'Europe/Berlin')::date, "cpo_id", "location_id", "end_customer_id", count(*)
FROM "charging_requests" WHERE "end_customer_id" IS NOT NULL GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
-- Statistics for the planner now: PGlite has no autovacuum to gather them later (the seed runs its own).
ANALYZE "charging_request_customer_months";
