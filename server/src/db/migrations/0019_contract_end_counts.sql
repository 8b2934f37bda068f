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
