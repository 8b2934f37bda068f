CREATE TABLE "bill_operator_days" (
	"day" date NOT NULL,
	"cpo_id" text NOT NULL,
	"bills" integer NOT NULL,
	CONSTRAINT "bill_operator_days_pk" PRIMARY KEY("cpo_id","day")
);
--> statement-breakpoint
CREATE TABLE "bill_operator_months" (
	"month" date NOT NULL,
	"cpo_id" text NOT NULL,
	"bills" integer NOT NULL,
	CONSTRAINT "bill_operator_months_pk" PRIMARY KEY("cpo_id","month")
);
--> statement-breakpoint
CREATE INDEX "bill_operator_days_day_idx" ON "bill_operator_days" USING btree ("day");--> statement-breakpoint
CREATE INDEX "bill_operator_months_month_idx" ON "bill_operator_months" USING btree ("month");--> statement-breakpoint
-- bill_rollups_merge (migration 0016) writes the per-operator day and month too, in the same
-- statement trigger: a group per operator and day (month), in key order as the others.
CREATE OR REPLACE FUNCTION "bill_rollups_merge"("d_cpo" text[], "d_at" timestamptz[], "d_status" text[], "d_method" text[], "d_user" text[], "d_n" int[])
RETURNS void LANGUAGE sql AS $$
  WITH d AS (
    SELECT "cpo_id", ("at" AT TIME ZONE 'Europe/Berlin')::date AS "day", "status_key", "payment_method_key", "user_type", "n"
    FROM unnest(d_cpo, d_at, d_status, d_method, d_user, d_n) AS d("cpo_id", "at", "status_key", "payment_method_key", "user_type", "n")
  ), days AS (
    INSERT INTO "bill_days" AS r ("cpo_id", "day", "status_key", "payment_method_key", "user_type", "bills")
    SELECT "cpo_id", "day", "status_key", "payment_method_key", "user_type", sum("n") FROM d
    GROUP BY 1, 2, 3, 4, 5 HAVING sum("n") <> 0 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT ("cpo_id", "day", "status_key", "payment_method_key", "user_type") DO UPDATE SET "bills" = r."bills" + excluded."bills"
  ), months AS (
    INSERT INTO "bill_months" AS r ("cpo_id", "month", "status_key", "payment_method_key", "user_type", "bills")
    SELECT "cpo_id", date_trunc('month', "day")::date, "status_key", "payment_method_key", "user_type", sum("n") FROM d
    GROUP BY 1, 2, 3, 4, 5 HAVING sum("n") <> 0 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT ("cpo_id", "month", "status_key", "payment_method_key", "user_type") DO UPDATE SET "bills" = r."bills" + excluded."bills"
  ), operator_days AS (
    INSERT INTO "bill_operator_days" AS r ("cpo_id", "day", "bills")
    SELECT "cpo_id", "day", sum("n") FROM d GROUP BY 1, 2 HAVING sum("n") <> 0 ORDER BY 1, 2
    ON CONFLICT ("cpo_id", "day") DO UPDATE SET "bills" = r."bills" + excluded."bills"
  )
  INSERT INTO "bill_operator_months" AS r ("cpo_id", "month", "bills")
  SELECT "cpo_id", date_trunc('month', "day")::date, sum("n") FROM d GROUP BY 1, 2 HAVING sum("n") <> 0 ORDER BY 1, 2
  ON CONFLICT ("cpo_id", "month") DO UPDATE SET "bills" = r."bills" + excluded."bills";
$$;
--> statement-breakpoint
-- Bills written before this migration.
INSERT INTO "bill_operator_days" ("cpo_id", "day", "bills")
SELECT "cpo_id", ("bill_generation_date" AT TIME ZONE 'Europe/Berlin')::date, count(*) FROM "bills" GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO "bill_operator_months" ("cpo_id", "month", "bills")
SELECT "cpo_id", date_trunc('month', "day")::date, sum("bills") FROM "bill_operator_days" GROUP BY 1, 2;
--> statement-breakpoint
-- PGlite never gathers statistics on its own.
ANALYZE "bill_operator_days";
--> statement-breakpoint
ANALYZE "bill_operator_months";
--> statement-breakpoint
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
--> statement-breakpoint
CREATE TABLE "contract_end_counts" (
	"cpo_id" text NOT NULL,
	"location_key" text NOT NULL,
	"end_date" date NOT NULL,
	"contracts" integer NOT NULL,
	CONSTRAINT "contract_end_counts_pk" PRIMARY KEY("cpo_id","location_key","end_date")
);
--> statement-breakpoint
-- Keeps contract_end_counts current on every write to contracts: the contracts not expired per
-- operator, location ('' for none) and end date ('infinity' for none), old rows subtracted, new
-- rows added, only the groups that move (an edit of a name or a tariff writes nothing), upserted
-- in key order. A transition table exists only for its events, so each event reads its own.
CREATE FUNCTION "contract_end_counts_merge"("d_cpo" text[], "d_location" text[], "d_end" date[], "d_n" int[])
RETURNS void LANGUAGE sql AS $$
  INSERT INTO "contract_end_counts" AS r ("cpo_id", "location_key", "end_date", "contracts")
  SELECT "cpo_id", "location_key", "end_date", sum("n") FROM unnest(d_cpo, d_location, d_end, d_n) AS d("cpo_id", "location_key", "end_date", "n")
  GROUP BY 1, 2, 3 HAVING sum("n") <> 0 ORDER BY 1, 2, 3
  ON CONFLICT ("cpo_id", "location_key", "end_date") DO UPDATE SET "contracts" = r."contracts" + excluded."contracts";
$$;
--> statement-breakpoint
CREATE FUNCTION "contract_end_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d_cpo text[]; d_location text[]; d_end date[]; d_n int[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg("cpo_id"), array_agg(coalesce("location_id", '')), array_agg(coalesce("end_date", 'infinity'::date)), array_agg(1)
    INTO d_cpo, d_location, d_end, d_n FROM new_rows WHERE "contract_status" NOT IN ('EXPIRED', 'UNSIGNED_EXPIRED');
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg("cpo_id"), array_agg(coalesce("location_id", '')), array_agg(coalesce("end_date", 'infinity'::date)), array_agg(-1)
    INTO d_cpo, d_location, d_end, d_n FROM old_rows WHERE "contract_status" NOT IN ('EXPIRED', 'UNSIGNED_EXPIRED');
  ELSE
    SELECT array_agg("cpo_id"), array_agg("location_key"), array_agg("end_date"), array_agg("n")
    INTO d_cpo, d_location, d_end, d_n
    FROM (
      SELECT "cpo_id", coalesce("location_id", '') AS "location_key", coalesce("end_date", 'infinity'::date) AS "end_date", -1 AS "n"
      FROM old_rows WHERE "contract_status" NOT IN ('EXPIRED', 'UNSIGNED_EXPIRED')
      UNION ALL
      SELECT "cpo_id", coalesce("location_id", ''), coalesce("end_date", 'infinity'::date), 1
      FROM new_rows WHERE "contract_status" NOT IN ('EXPIRED', 'UNSIGNED_EXPIRED')
    ) u;
  END IF;
  IF d_cpo IS NOT NULL THEN
    PERFORM "contract_end_counts_merge"(d_cpo, d_location, d_end, d_n);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "contract_end_counts_insert" AFTER INSERT ON "contracts"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "contract_end_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "contract_end_counts_update" AFTER UPDATE ON "contracts"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "contract_end_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "contract_end_counts_delete" AFTER DELETE ON "contracts"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "contract_end_counts_apply"();
--> statement-breakpoint
-- Contracts written before this migration.
INSERT INTO "contract_end_counts" ("cpo_id", "location_key", "end_date", "contracts")
SELECT "cpo_id", coalesce("location_id", ''), coalesce("end_date", 'infinity'::date), count(*) FROM "contracts"
WHERE "contract_status" NOT IN ('EXPIRED', 'UNSIGNED_EXPIRED') GROUP BY 1, 2, 3;
--> statement-breakpoint
-- PGlite never gathers statistics on its own.
ANALYZE "contract_end_counts";
