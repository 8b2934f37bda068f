CREATE TABLE "bill_days" (
	"day" date NOT NULL,
	"cpo_id" text NOT NULL,
	"status_key" text NOT NULL,
	"payment_method_key" text NOT NULL,
	"user_type" text NOT NULL,
	"bills" integer NOT NULL,
	CONSTRAINT "bill_days_pk" PRIMARY KEY("cpo_id","day","status_key","payment_method_key","user_type")
);
--> statement-breakpoint
CREATE TABLE "bill_months" (
	"month" date NOT NULL,
	"cpo_id" text NOT NULL,
	"status_key" text NOT NULL,
	"payment_method_key" text NOT NULL,
	"user_type" text NOT NULL,
	"bills" integer NOT NULL,
	CONSTRAINT "bill_months_pk" PRIMARY KEY("cpo_id","month","status_key","payment_method_key","user_type")
);
--> statement-breakpoint
CREATE TABLE "connector_counts" (
	"cpo_id" text NOT NULL,
	"location_key" text NOT NULL,
	"connectors" integer NOT NULL,
	"live_connectors" integer NOT NULL,
	"stations" integer NOT NULL,
	"live_stations" integer NOT NULL,
	CONSTRAINT "connector_counts_pk" PRIMARY KEY("cpo_id","location_key")
);
--> statement-breakpoint
CREATE TABLE "connector_station_counts" (
	"cpo_id" text NOT NULL,
	"location_key" text NOT NULL,
	"cp_id" text NOT NULL,
	"connectors" integer NOT NULL,
	"live_connectors" integer NOT NULL,
	CONSTRAINT "connector_station_counts_pk" PRIMARY KEY("cpo_id","location_key","cp_id")
);
--> statement-breakpoint
DROP INDEX "bills_cpo_generation_idx";--> statement-breakpoint
CREATE INDEX "bill_days_day_idx" ON "bill_days" USING btree ("day");--> statement-breakpoint
CREATE INDEX "bill_months_month_idx" ON "bill_months" USING btree ("month");--> statement-breakpoint
CREATE INDEX "connector_counts_location_idx" ON "connector_counts" USING btree ("location_key");--> statement-breakpoint
CREATE INDEX "bills_cpo_generation_number_idx" ON "bills" USING btree ("cpo_id","bill_generation_date" DESC NULLS FIRST,"bill_number" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "bills_generation_number_idx" ON "bills" USING btree ("bill_generation_date" DESC NULLS FIRST,"bill_number" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "connectors_location_page_idx" ON "connectors" USING btree ("location_id","cp_id","connector_id") WHERE removed = false;--> statement-breakpoint
CREATE INDEX "connectors_unlocated_page_idx" ON "connectors" USING btree ("cpo_id","cp_id","connector_id") WHERE location_id is null and removed = false;--> statement-breakpoint
-- Keeps connector_station_counts and connector_counts current on every write to connectors, as
-- 0004-0006 do for the charging requests: one statement-level trigger per event with its transition
-- tables. The changes are grouped per operator, location and station; groups whose counts do not
-- move (a status change, a heartbeat) write nothing, so OCPP's updates lock no roll-up row. A
-- station counts at its location when its first connector comes and stops when its last one goes:
-- the station row's new count (RETURNING) and the change give its count before.
CREATE FUNCTION "connector_counts_merge"("d_cpo" text[], "d_location" text[], "d_cp" text[], "d_n" int[], "d_live" int[])
RETURNS void LANGUAGE sql AS $$
  WITH d AS (
    SELECT * FROM unnest(d_cpo, d_location, d_cp, d_n, d_live) AS d("cpo_id", "location_key", "cp_id", "n", "live")
  ), s AS (
    INSERT INTO "connector_station_counts" AS s ("cpo_id", "location_key", "cp_id", "connectors", "live_connectors")
    SELECT "cpo_id", "location_key", "cp_id", "n", "live" FROM d ORDER BY 1, 2, 3
    ON CONFLICT ("cpo_id", "location_key", "cp_id") DO UPDATE
      SET "connectors" = s."connectors" + excluded."connectors", "live_connectors" = s."live_connectors" + excluded."live_connectors"
    RETURNING s."cpo_id", s."location_key", s."cp_id", s."connectors", s."live_connectors"
  )
  INSERT INTO "connector_counts" AS c ("cpo_id", "location_key", "connectors", "live_connectors", "stations", "live_stations")
  SELECT s."cpo_id", s."location_key", sum(d."n"), sum(d."live"),
    sum((s."connectors" > 0)::int - (s."connectors" - d."n" > 0)::int),
    sum((s."live_connectors" > 0)::int - (s."live_connectors" - d."live" > 0)::int)
  FROM s JOIN d USING ("cpo_id", "location_key", "cp_id")
  GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT ("cpo_id", "location_key") DO UPDATE
    SET "connectors" = c."connectors" + excluded."connectors", "live_connectors" = c."live_connectors" + excluded."live_connectors",
        "stations" = c."stations" + excluded."stations", "live_stations" = c."live_stations" + excluded."live_stations";
$$;
--> statement-breakpoint
CREATE FUNCTION "connector_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d_cpo text[]; d_location text[]; d_cp text[]; d_n int[]; d_live int[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg("cpo_id"), array_agg("location_key"), array_agg("cp_id"), array_agg("n"), array_agg("live")
    INTO d_cpo, d_location, d_cp, d_n, d_live
    FROM (SELECT "cpo_id", coalesce("location_id", '') AS "location_key", "cp_id", count(*)::int AS "n",
            (count(*) FILTER (WHERE NOT "removed"))::int AS "live"
          FROM new_rows GROUP BY 1, 2, 3) g;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg("cpo_id"), array_agg("location_key"), array_agg("cp_id"), array_agg("n"), array_agg("live")
    INTO d_cpo, d_location, d_cp, d_n, d_live
    FROM (SELECT "cpo_id", coalesce("location_id", '') AS "location_key", "cp_id", -count(*)::int AS "n",
            -(count(*) FILTER (WHERE NOT "removed"))::int AS "live"
          FROM old_rows GROUP BY 1, 2, 3) g;
  ELSE
    SELECT array_agg("cpo_id"), array_agg("location_key"), array_agg("cp_id"), array_agg("n"), array_agg("live")
    INTO d_cpo, d_location, d_cp, d_n, d_live
    FROM (SELECT "cpo_id", "location_key", "cp_id", sum("n")::int AS "n", sum("live")::int AS "live"
          FROM (SELECT "cpo_id", coalesce("location_id", '') AS "location_key", "cp_id", -1 AS "n", -(NOT "removed")::int AS "live" FROM old_rows
                UNION ALL
                SELECT "cpo_id", coalesce("location_id", '') AS "location_key", "cp_id", 1, (NOT "removed")::int FROM new_rows) u
          GROUP BY 1, 2, 3
          HAVING sum("n") <> 0 OR sum("live") <> 0) g;
  END IF;
  IF d_cpo IS NOT NULL THEN
    PERFORM "connector_counts_merge"(d_cpo, d_location, d_cp, d_n, d_live);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "connector_counts_insert" AFTER INSERT ON "connectors"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "connector_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "connector_counts_update" AFTER UPDATE ON "connectors"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "connector_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "connector_counts_delete" AFTER DELETE ON "connectors"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "connector_counts_apply"();
--> statement-breakpoint
-- Connectors written before this migration.
INSERT INTO "connector_station_counts" ("cpo_id", "location_key", "cp_id", "connectors", "live_connectors")
SELECT "cpo_id", coalesce("location_id", ''), "cp_id", count(*), count(*) FILTER (WHERE NOT "removed") FROM "connectors" GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO "connector_counts" ("cpo_id", "location_key", "connectors", "live_connectors", "stations", "live_stations")
SELECT "cpo_id", "location_key", sum("connectors"), sum("live_connectors"), count(*) FILTER (WHERE "connectors" > 0),
  count(*) FILTER (WHERE "live_connectors" > 0)
FROM "connector_station_counts" GROUP BY 1, 2;
--> statement-breakpoint
-- Keeps bill_days and bill_months current on every write to bills (the bill run, regenerate, a
-- status or payment change): old rows subtracted, new rows added, per operator, Berlin day (month)
-- of generation, status, payment method and user type; groups that do not move (a PDF link, a
-- download date) write nothing. Rows are upserted in key order, so concurrent writers lock alike.
CREATE FUNCTION "bill_rollups_merge"("d_cpo" text[], "d_at" timestamptz[], "d_status" text[], "d_method" text[], "d_user" text[], "d_n" int[])
RETURNS void LANGUAGE sql AS $$
  WITH d AS (
    SELECT "cpo_id", ("at" AT TIME ZONE 'Europe/Berlin')::date AS "day", "status_key", "payment_method_key", "user_type", "n"
    FROM unnest(d_cpo, d_at, d_status, d_method, d_user, d_n) AS d("cpo_id", "at", "status_key", "payment_method_key", "user_type", "n")
  ), days AS (
    INSERT INTO "bill_days" AS r ("cpo_id", "day", "status_key", "payment_method_key", "user_type", "bills")
    SELECT "cpo_id", "day", "status_key", "payment_method_key", "user_type", sum("n") FROM d
    GROUP BY 1, 2, 3, 4, 5 HAVING sum("n") <> 0 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT ("cpo_id", "day", "status_key", "payment_method_key", "user_type") DO UPDATE SET "bills" = r."bills" + excluded."bills"
  )
  INSERT INTO "bill_months" AS r ("cpo_id", "month", "status_key", "payment_method_key", "user_type", "bills")
  SELECT "cpo_id", date_trunc('month', "day")::date, "status_key", "payment_method_key", "user_type", sum("n") FROM d
  GROUP BY 1, 2, 3, 4, 5 HAVING sum("n") <> 0 ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("cpo_id", "month", "status_key", "payment_method_key", "user_type") DO UPDATE SET "bills" = r."bills" + excluded."bills";
$$;
--> statement-breakpoint
CREATE FUNCTION "bill_rollups_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d_cpo text[]; d_at timestamptz[]; d_status text[]; d_method text[]; d_user text[]; d_n int[];
BEGIN
  -- A transition table exists only for its events, so each event reads its own.
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg("cpo_id"), array_agg("bill_generation_date"), array_agg(coalesce("billing_status", '')),
      array_agg(coalesce("payment_method", '')), array_agg("user_type"), array_agg(1)
    INTO d_cpo, d_at, d_status, d_method, d_user, d_n FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg("cpo_id"), array_agg("bill_generation_date"), array_agg(coalesce("billing_status", '')),
      array_agg(coalesce("payment_method", '')), array_agg("user_type"), array_agg(-1)
    INTO d_cpo, d_at, d_status, d_method, d_user, d_n FROM old_rows;
  ELSE
    SELECT array_agg("cpo_id"), array_agg("at"), array_agg("status_key"), array_agg("payment_method_key"), array_agg("user_type"), array_agg("n")
    INTO d_cpo, d_at, d_status, d_method, d_user, d_n
    FROM (
      SELECT "cpo_id", "at", "status_key", "payment_method_key", "user_type", sum("n")::int AS "n"
      FROM (
        SELECT "cpo_id", "bill_generation_date" AS "at", coalesce("billing_status", '') AS "status_key",
          coalesce("payment_method", '') AS "payment_method_key", "user_type", -1 AS "n"
        FROM old_rows
        UNION ALL
        SELECT "cpo_id", "bill_generation_date", coalesce("billing_status", ''), coalesce("payment_method", ''), "user_type", 1
        FROM new_rows
      ) u
      GROUP BY 1, 2, 3, 4, 5 HAVING sum("n") <> 0
    ) g;
  END IF;
  IF d_cpo IS NOT NULL THEN
    PERFORM "bill_rollups_merge"(d_cpo, d_at, d_status, d_method, d_user, d_n);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "bill_rollups_insert" AFTER INSERT ON "bills"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "bill_rollups_apply"();
--> statement-breakpoint
CREATE TRIGGER "bill_rollups_update" AFTER UPDATE ON "bills"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "bill_rollups_apply"();
--> statement-breakpoint
CREATE TRIGGER "bill_rollups_delete" AFTER DELETE ON "bills"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "bill_rollups_apply"();
--> statement-breakpoint
-- Bills written before this migration.
INSERT INTO "bill_days" ("cpo_id", "day", "status_key", "payment_method_key", "user_type", "bills")
SELECT "cpo_id", ("bill_generation_date" AT TIME ZONE 'Europe/Berlin')::date, coalesce("billing_status", ''), coalesce("payment_method", ''), "user_type", count(*)
FROM "bills" GROUP BY 1, 2, 3, 4, 5;
--> statement-breakpoint
INSERT INTO "bill_months" ("cpo_id", "month", "status_key", "payment_method_key", "user_type", "bills")
SELECT "cpo_id", date_trunc('month', "day")::date, "status_key", "payment_method_key", "user_type", sum("bills")
FROM "bill_days" GROUP BY 1, 2, 3, 4, 5;
--> statement-breakpoint
-- PGlite never gathers statistics on its own.
ANALYZE "connectors";
--> statement-breakpoint
ANALYZE "connector_station_counts";
--> statement-breakpoint
ANALYZE "connector_counts";
--> statement-breakpoint
ANALYZE "bills";
--> statement-breakpoint
ANALYZE "bill_days";
--> statement-breakpoint
ANALYZE "bill_months";
