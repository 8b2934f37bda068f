CREATE TABLE "charging_request_operator_days" (
	"day" date NOT NULL,
	"cpo_id" text NOT NULL,
	"status" text NOT NULL,
	"requests" integer NOT NULL,
	"energy_kwh" numeric NOT NULL,
	"cost" numeric NOT NULL,
	CONSTRAINT "charging_request_operator_days_pk" PRIMARY KEY("cpo_id","day","status")
);
--> statement-breakpoint
CREATE TABLE "charging_request_operator_months" (
	"month" date NOT NULL,
	"cpo_id" text NOT NULL,
	"status" text NOT NULL,
	"requests" integer NOT NULL,
	"energy_kwh" numeric NOT NULL,
	"cost" numeric NOT NULL,
	CONSTRAINT "charging_request_operator_months_pk" PRIMARY KEY("cpo_id","month","status")
);
--> statement-breakpoint
CREATE INDEX "charging_request_operator_days_day_idx" ON "charging_request_operator_days" USING btree ("day");--> statement-breakpoint
-- Keeps charging_request_operator_days and _months current on every write to charging_requests, as
-- 0004 does for the per-location roll-ups: one statement-level trigger per event with its
-- transition tables, old rows subtracted, new rows added, upserted in key order.
CREATE FUNCTION "charging_request_operator_rollups_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO "charging_request_operator_days" AS r ("day", "cpo_id", "status", "requests", "energy_kwh", "cost")
    SELECT ("start_date" AT TIME ZONE 'Europe/Berlin')::date, "cpo_id", "status", -count(*), -sum("energy_kwh"), -sum("cost")
    FROM old_rows GROUP BY 1, 2, 3 ORDER BY 2, 1, 3
    ON CONFLICT ("cpo_id", "day", "status") DO UPDATE
      SET "requests" = r."requests" + excluded."requests", "energy_kwh" = r."energy_kwh" + excluded."energy_kwh", "cost" = r."cost" + excluded."cost";
    INSERT INTO "charging_request_operator_months" AS r ("month", "cpo_id", "status", "requests", "energy_kwh", "cost")
    SELECT date_trunc('month', "start_date" AT TIME ZONE 'Europe/Berlin')::date, "cpo_id", "status", -count(*), -sum("energy_kwh"), -sum("cost")
    FROM old_rows GROUP BY 1, 2, 3 ORDER BY 2, 1, 3
    ON CONFLICT ("cpo_id", "month", "status") DO UPDATE
      SET "requests" = r."requests" + excluded."requests", "energy_kwh" = r."energy_kwh" + excluded."energy_kwh", "cost" = r."cost" + excluded."cost";
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "charging_request_operator_days" AS r ("day", "cpo_id", "status", "requests", "energy_kwh", "cost")
    SELECT ("start_date" AT TIME ZONE 'Europe/Berlin')::date, "cpo_id", "status", count(*), sum("energy_kwh"), sum("cost")
    FROM new_rows GROUP BY 1, 2, 3 ORDER BY 2, 1, 3
    ON CONFLICT ("cpo_id", "day", "status") DO UPDATE
      SET "requests" = r."requests" + excluded."requests", "energy_kwh" = r."energy_kwh" + excluded."energy_kwh", "cost" = r."cost" + excluded."cost";
    INSERT INTO "charging_request_operator_months" AS r ("month", "cpo_id", "status", "requests", "energy_kwh", "cost")
    SELECT date_trunc('month', "start_date" AT TIME ZONE 'Europe/Berlin')::date, "cpo_id", "status", count(*), sum("energy_kwh"), sum("cost")
    FROM new_rows GROUP BY 1, 2, 3 ORDER BY 2, 1, 3
    ON CONFLICT ("cpo_id", "month", "status") DO UPDATE
      SET "requests" = r."requests" + excluded."requests", "energy_kwh" = r."energy_kwh" + excluded."energy_kwh", "cost" = r."cost" + excluded."cost";
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "charging_request_operator_rollups_insert" AFTER INSERT ON "charging_requests"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "charging_request_operator_rollups_apply"();
--> statement-breakpoint
CREATE TRIGGER "charging_request_operator_rollups_update" AFTER UPDATE ON "charging_requests"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "charging_request_operator_rollups_apply"();
--> statement-breakpoint
CREATE TRIGGER "charging_request_operator_rollups_delete" AFTER DELETE ON "charging_requests"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "charging_request_operator_rollups_apply"();
--> statement-breakpoint
-- Requests written before this migration, from the per-location roll-ups (the same sums).
INSERT INTO "charging_request_operator_days" ("day", "cpo_id", "status", "requests", "energy_kwh", "cost")
SELECT "day", "cpo_id", "status", sum("requests"), sum("energy_kwh"), sum("cost") FROM "charging_request_days" GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO "charging_request_operator_months" ("month", "cpo_id", "status", "requests", "energy_kwh", "cost")
SELECT "month", "cpo_id", "status", sum("requests"), sum("energy_kwh"), sum("cost") FROM "charging_request_months" GROUP BY 1, 2, 3;
--> statement-breakpoint
-- PGlite never gathers statistics on its own.
ANALYZE "charging_request_operator_days";
--> statement-breakpoint
ANALYZE "charging_request_operator_months";
