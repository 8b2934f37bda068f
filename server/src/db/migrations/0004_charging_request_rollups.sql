CREATE TABLE "charging_request_days" (
	"day" date NOT NULL,
	"cpo_id" text NOT NULL,
	"location_id" text NOT NULL,
	"status" text NOT NULL,
	"requests" integer NOT NULL,
	"energy_kwh" numeric NOT NULL,
	"cost" numeric NOT NULL,
	CONSTRAINT "charging_request_days_cpo_id_day_location_id_status_pk" PRIMARY KEY("cpo_id","day","location_id","status")
);
--> statement-breakpoint
CREATE TABLE "charging_request_months" (
	"month" date NOT NULL,
	"cpo_id" text NOT NULL,
	"location_id" text NOT NULL,
	"status" text NOT NULL,
	"requests" integer NOT NULL,
	"energy_kwh" numeric NOT NULL,
	"cost" numeric NOT NULL,
	CONSTRAINT "charging_request_months_cpo_id_month_location_id_status_pk" PRIMARY KEY("cpo_id","month","location_id","status")
);
--> statement-breakpoint
CREATE INDEX "charging_request_days_day_idx" ON "charging_request_days" USING btree ("day");
--> statement-breakpoint
-- Keeps charging_request_days and charging_request_months current on every write to
-- charging_requests: one statement-level trigger per event with its transition tables, so a bulk
-- insert (the seed) or update (clean) adds its rows grouped, once per statement. Old rows are
-- subtracted, new rows added; rows are upserted in key order, so concurrent writers lock alike.
CREATE FUNCTION "charging_request_rollups_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO "charging_request_days" AS r ("day", "cpo_id", "location_id", "status", "requests", "energy_kwh", "cost")
    SELECT ("start_date" AT TIME ZONE 'Europe/Berlin')::date, "cpo_id", "location_id", "status", -count(*), -sum("energy_kwh"), -sum("cost")
    FROM old_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT ("cpo_id", "day", "location_id", "status") DO UPDATE
      SET "requests" = r."requests" + excluded."requests", "energy_kwh" = r."energy_kwh" + excluded."energy_kwh", "cost" = r."cost" + excluded."cost";
    INSERT INTO "charging_request_months" AS r ("month", "cpo_id", "location_id", "status", "requests", "energy_kwh", "cost")
    SELECT date_trunc('month', "start_date" AT TIME ZONE 'Europe/Berlin')::date, "cpo_id", "location_id", "status", -count(*), -sum("energy_kwh"), -sum("cost")
    FROM old_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT ("cpo_id", "month", "location_id", "status") DO UPDATE
      SET "requests" = r."requests" + excluded."requests", "energy_kwh" = r."energy_kwh" + excluded."energy_kwh", "cost" = r."cost" + excluded."cost";
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "charging_request_days" AS r ("day", "cpo_id", "location_id", "status", "requests", "energy_kwh", "cost")
    SELECT ("start_date" AT TIME ZONE 'Europe/Berlin')::date, "cpo_id", "location_id", "status", count(*), sum("energy_kwh"), sum("cost")
    FROM new_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT ("cpo_id", "day", "location_id", "status") DO UPDATE
      SET "requests" = r."requests" + excluded."requests", "energy_kwh" = r."energy_kwh" + excluded."energy_kwh", "cost" = r."cost" + excluded."cost";
    INSERT INTO "charging_request_months" AS r ("month", "cpo_id", "location_id", "status", "requests", "energy_kwh", "cost")
    SELECT date_trunc('month', "start_date" AT TIME ZONE 'Europe/Berlin')::date, "cpo_id", "location_id", "status", count(*), sum("energy_kwh"), sum("cost")
    FROM new_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT ("cpo_id", "month", "location_id", "status") DO UPDATE
      SET "requests" = r."requests" + excluded."requests", "energy_kwh" = r."energy_kwh" + excluded."energy_kwh", "cost" = r."cost" + excluded."cost";
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "charging_request_rollups_insert" AFTER INSERT ON "charging_requests"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "charging_request_rollups_apply"();
--> statement-breakpoint
CREATE TRIGGER "charging_request_rollups_update" AFTER UPDATE ON "charging_requests"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "charging_request_rollups_apply"();
--> statement-breakpoint
CREATE TRIGGER "charging_request_rollups_delete" AFTER DELETE ON "charging_requests"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "charging_request_rollups_apply"();
--> statement-breakpoint
-- Requests written before this migration.
INSERT INTO "charging_request_days" ("day", "cpo_id", "location_id", "status", "requests", "energy_kwh", "cost")
SELECT ("start_date" AT TIME ZONE 'Europe/Berlin')::date, "cpo_id", "location_id", "status", count(*), sum("energy_kwh"), sum("cost")
FROM "charging_requests" GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
INSERT INTO "charging_request_months" ("month", "cpo_id", "location_id", "status", "requests", "energy_kwh", "cost")
SELECT date_trunc('month', "start_date" AT TIME ZONE 'Europe/Berlin')::date, "cpo_id", "location_id", "status", count(*), sum("energy_kwh"), sum("cost")
FROM "charging_requests" GROUP BY 1, 2, 3, 4;
