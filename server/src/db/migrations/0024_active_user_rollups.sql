CREATE TABLE "active_user_customer_months" (
	"month" date NOT NULL,
	"end_customer_id" text NOT NULL,
	"operators" integer NOT NULL,
	CONSTRAINT "active_user_customer_months_pk" PRIMARY KEY("month","end_customer_id")
);
--> statement-breakpoint
CREATE TABLE "active_user_months" (
	"cpo_id" text NOT NULL,
	"month" date NOT NULL,
	"customers" integer NOT NULL,
	CONSTRAINT "active_user_months_pk" PRIMARY KEY("cpo_id","month")
);
--> statement-breakpoint
CREATE TABLE "charging_request_operator_customer_months" (
	"cpo_id" text NOT NULL,
	"month" date NOT NULL,
	"end_customer_id" text NOT NULL,
	"requests" integer NOT NULL,
	CONSTRAINT "charging_request_operator_customer_months_pk" PRIMARY KEY("cpo_id","month","end_customer_id")
);
--> statement-breakpoint
CREATE INDEX "active_user_customer_months_shared_idx" ON "active_user_customer_months" USING btree ("month") WHERE "active_user_customer_months"."operators" > 1;--> statement-breakpoint
CREATE INDEX "active_user_months_month_idx" ON "active_user_months" USING btree ("month");--> statement-breakpoint
-- Keeps the active-user roll-ups current on every write to charging_requests: the net change per
-- (operator, Berlin month, end customer) of a statement (an update that keeps all three writes
-- nothing), upserted in key order; a row whose requests go from 0 to more (or back) moves its
-- operator's month count and the customer's operator count by one. Increments only, so
-- concurrent writers never need to see each other's rows.
CREATE FUNCTION "active_user_rollups_merge"("d_cpo" text[], "d_month" date[], "d_customer" text[], "d_n" int[])
RETURNS void LANGUAGE sql AS $$
  WITH d AS (
    SELECT "cpo_id", "month", "end_customer_id", sum("n")::int AS "n"
    FROM unnest(d_cpo, d_month, d_customer, d_n) AS d("cpo_id", "month", "end_customer_id", "n")
    GROUP BY 1, 2, 3 HAVING sum("n") <> 0
  ), up AS (
    INSERT INTO "charging_request_operator_customer_months" AS r ("cpo_id", "month", "end_customer_id", "requests")
    SELECT "cpo_id", "month", "end_customer_id", "n" FROM d ORDER BY 1, 2, 3
    ON CONFLICT ("cpo_id", "month", "end_customer_id") DO UPDATE SET "requests" = r."requests" + excluded."requests"
    RETURNING r."cpo_id", r."month", r."end_customer_id", r."requests"
  ), moved AS (
    SELECT up."cpo_id", up."month", up."end_customer_id", (up."requests" > 0)::int - (up."requests" - d."n" > 0)::int AS "step"
    FROM up JOIN d USING ("cpo_id", "month", "end_customer_id")
  ), months AS (
    INSERT INTO "active_user_months" AS r ("cpo_id", "month", "customers")
    SELECT "cpo_id", "month", sum("step") FROM moved WHERE "step" <> 0 GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT ("cpo_id", "month") DO UPDATE SET "customers" = r."customers" + excluded."customers"
  )
  INSERT INTO "active_user_customer_months" AS r ("month", "end_customer_id", "operators")
  SELECT "month", "end_customer_id", sum("step") FROM moved WHERE "step" <> 0 GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT ("month", "end_customer_id") DO UPDATE SET "operators" = r."operators" + excluded."operators";
$$;
--> statement-breakpoint
CREATE FUNCTION "active_user_rollups_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d_cpo text[];
  d_month date[];
  d_customer text[];
  d_n int[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg("cpo_id"), array_agg(date_trunc('month', "start_date" AT TIME ZONE 'Europe/Berlin')::date), array_agg("end_customer_id"), array_agg(1)
    INTO d_cpo, d_month, d_customer, d_n FROM new_rows WHERE "end_customer_id" IS NOT NULL;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg("cpo_id"), array_agg(date_trunc('month', "start_date" AT TIME ZONE 'Europe/Berlin')::date), array_agg("end_customer_id"), array_agg(-1)
    INTO d_cpo, d_month, d_customer, d_n FROM old_rows WHERE "end_customer_id" IS NOT NULL;
  ELSE
    SELECT array_agg("cpo_id"), array_agg("month"), array_agg("end_customer_id"), array_agg("n")
    INTO d_cpo, d_month, d_customer, d_n
    FROM (
      SELECT "cpo_id", date_trunc('month', "start_date" AT TIME ZONE 'Europe/Berlin')::date AS "month", "end_customer_id", -1 AS "n"
      FROM old_rows WHERE "end_customer_id" IS NOT NULL
      UNION ALL
      SELECT "cpo_id", date_trunc('month', "start_date" AT TIME ZONE 'Europe/Berlin')::date, "end_customer_id", 1
      FROM new_rows WHERE "end_customer_id" IS NOT NULL
    ) c;
  END IF;
  IF d_cpo IS NOT NULL THEN
    PERFORM "active_user_rollups_merge"(d_cpo, d_month, d_customer, d_n);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "active_user_rollups_insert" AFTER INSERT ON "charging_requests"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "active_user_rollups_apply"();
--> statement-breakpoint
CREATE TRIGGER "active_user_rollups_update" AFTER UPDATE ON "charging_requests"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "active_user_rollups_apply"();
--> statement-breakpoint
CREATE TRIGGER "active_user_rollups_delete" AFTER DELETE ON "charging_requests"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "active_user_rollups_apply"();
--> statement-breakpoint
-- Requests written before this migration.
INSERT INTO "charging_request_operator_customer_months" ("cpo_id", "month", "end_customer_id", "requests")
SELECT "cpo_id", date_trunc('month', "start_date" AT TIME ZONE 'Europe/Berlin')::date, "end_customer_id", count(*)
FROM "charging_requests" WHERE "end_customer_id" IS NOT NULL GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO "active_user_months" ("cpo_id", "month", "customers")
SELECT "cpo_id", "month", count(*) FROM "charging_request_operator_customer_months" GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO "active_user_customer_months" ("month", "end_customer_id", "operators")
SELECT "month", "end_customer_id", count(*) FROM "charging_request_operator_customer_months" GROUP BY 1, 2;
--> statement-breakpoint
-- PGlite never gathers statistics on its own.
ANALYZE "charging_request_operator_customer_months";
--> statement-breakpoint
ANALYZE "active_user_months";
--> statement-breakpoint
ANALYZE "active_user_customer_months";
