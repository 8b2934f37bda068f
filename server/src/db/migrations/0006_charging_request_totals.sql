CREATE TABLE "charging_request_totals" (
	"cpo_id" text NOT NULL,
	"status" text NOT NULL,
	"requests" integer NOT NULL,
	CONSTRAINT "charging_request_totals_pk" PRIMARY KEY("cpo_id","status")
);
--> statement-breakpoint
-- Keeps charging_request_totals current on every write to charging_requests, as 0004 and 0005 do
-- for the other roll-ups: one statement-level trigger per event with its transition tables; old
-- rows are subtracted, new rows added, upserted in key order.
CREATE FUNCTION "charging_request_totals_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO "charging_request_totals" AS r ("cpo_id", "status", "requests")
    SELECT "cpo_id", "status", -count(*) FROM old_rows GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT ("cpo_id", "status") DO UPDATE SET "requests" = r."requests" + excluded."requests";
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "charging_request_totals" AS r ("cpo_id", "status", "requests")
    SELECT "cpo_id", "status", count(*) FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT ("cpo_id", "status") DO UPDATE SET "requests" = r."requests" + excluded."requests";
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "charging_request_totals_insert" AFTER INSERT ON "charging_requests"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "charging_request_totals_apply"();
--> statement-breakpoint
CREATE TRIGGER "charging_request_totals_update" AFTER UPDATE ON "charging_requests"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "charging_request_totals_apply"();
--> statement-breakpoint
CREATE TRIGGER "charging_request_totals_delete" AFTER DELETE ON "charging_requests"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "charging_request_totals_apply"();
--> statement-breakpoint
-- Requests written before this migration.
INSERT INTO "charging_request_totals" ("cpo_id", "status", "requests")
SELECT "cpo_id", "status", count(*) FROM "charging_requests" GROUP BY 1, 2;
--> statement-breakpoint
ANALYZE "charging_request_totals";
