CREATE TABLE "charging_request_days" (
	"day" date NOT NULL,
	"cpo_id" text NOT NULL,
	"location_id" text NOT NULL,
	"connector_id" text NOT NULL,
	"status" text NOT NULL,
	"requests" integer NOT NULL,
	"energy_kwh" numeric NOT NULL,
	"cost" numeric NOT NULL,
	CONSTRAINT "charging_request_days_cpo_id_day_location_id_connector_id_status_pk" PRIMARY KEY("cpo_id","day","location_id","connector_id","status")
);
--> statement-breakpoint
CREATE INDEX "charging_request_days_day_idx" ON "charging_request_days" USING btree ("day");--> statement-breakpoint
CREATE INDEX "charging_request_days_connector_idx" ON "charging_request_days" USING btree ("connector_id","day");--> statement-breakpoint
-- Keeps charging_request_days current on every write to charging_requests: one statement-level
-- trigger per event with its transition tables, so a bulk insert (the seed) or update (clean) adds
-- its rows grouped, once per statement. Old rows are subtracted, new rows added.
CREATE FUNCTION "charging_request_days_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO "charging_request_days" AS d ("day", "cpo_id", "location_id", "connector_id", "status", "requests", "energy_kwh", "cost")
    SELECT ("start_date" AT TIME ZONE 'Europe/Berlin')::date, "cpo_id", "location_id", "connector_id", "status",
           -count(*), -sum("energy_kwh"), -sum("cost")
    FROM old_rows GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT ("cpo_id", "day", "location_id", "connector_id", "status") DO UPDATE
      SET "requests" = d."requests" + excluded."requests", "energy_kwh" = d."energy_kwh" + excluded."energy_kwh", "cost" = d."cost" + excluded."cost";
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "charging_request_days" AS d ("day", "cpo_id", "location_id", "connector_id", "status", "requests", "energy_kwh", "cost")
    SELECT ("start_date" AT TIME ZONE 'Europe/Berlin')::date, "cpo_id", "location_id", "connector_id", "status",
           count(*), sum("energy_kwh"), sum("cost")
    FROM new_rows GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT ("cpo_id", "day", "location_id", "connector_id", "status") DO UPDATE
      SET "requests" = d."requests" + excluded."requests", "energy_kwh" = d."energy_kwh" + excluded."energy_kwh", "cost" = d."cost" + excluded."cost";
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "charging_request_days_insert" AFTER INSERT ON "charging_requests"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "charging_request_days_apply"();
--> statement-breakpoint
CREATE TRIGGER "charging_request_days_update" AFTER UPDATE ON "charging_requests"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "charging_request_days_apply"();
--> statement-breakpoint
CREATE TRIGGER "charging_request_days_delete" AFTER DELETE ON "charging_requests"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "charging_request_days_apply"();
--> statement-breakpoint
-- Requests written before this migration.
INSERT INTO "charging_request_days" ("day", "cpo_id", "location_id", "connector_id", "status", "requests", "energy_kwh", "cost")
SELECT ("start_date" AT TIME ZONE 'Europe/Berlin')::date, "cpo_id", "location_id", "connector_id", "status", count(*), sum("energy_kwh"), sum("cost")
FROM "charging_requests" GROUP BY 1, 2, 3, 4, 5;
