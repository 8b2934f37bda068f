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
