-- Each charging request's cost from the tariff in force on its Berlin start day (issue 35), by the
-- bills' rule (bills/compute.ts requestCostCents): energy × price per kWh rounded once, half up,
-- to the cent, plus the fee per charging request; nothing when no energy flowed. The seed had
-- priced every session by the contract's tariff of today, and in floating point. The tariff blocks
-- are the ones the bill run reads (run-queries.ts tariffHistories): the tariff history with the
-- changes not applied yet from their date, a pending change winning over a history row of its date
-- (of two pending ones the later), the first block also before its date. numeric arithmetic is
-- exact and round() rounds half away from zero, which is half up for these non-negative amounts.
-- Only rows whose cost changes are written; the roll-ups follow through their UPDATE triggers.
WITH "tariffs" AS (
  SELECT DISTINCT ON ("contract_key", "valid_from") "contract_key", "valid_from", "var_tariff", "fee"
  FROM (
    SELECT "contract_key", "valid_from", "var_tariff", "fix_tariff_per_charging_request" AS "fee", 0 AS "pending_id"
    FROM "contract_tariffs"
    UNION ALL
    SELECT "contract_key", "new_tariff_date", "var_tariff", "fix_tariff_per_charging_request", "id"
    FROM "pending_tariff_changes" WHERE "applied_at" IS NULL
  ) u
  ORDER BY "contract_key", "valid_from", "pending_id" DESC
), "blocks" AS (
  SELECT "contract_key", "var_tariff", "fee",
    CASE WHEN row_number() OVER w = 1 THEN '-infinity'::date ELSE "valid_from" END AS "from_day",
    coalesce(lead("valid_from") OVER w, 'infinity'::date) AS "until_day"
  FROM "tariffs"
  WINDOW w AS (PARTITION BY "contract_key" ORDER BY "valid_from")
), "costs" AS (
  SELECT r."transaction_id",
    CASE WHEN r."energy_kwh" > 0 THEN round(r."energy_kwh" * b."var_tariff", 2) + b."fee" ELSE 0 END AS "cost"
  FROM "charging_requests" r
  JOIN "blocks" b ON b."contract_key" = r."contract_key"
    AND (r."start_date" AT TIME ZONE 'Europe/Berlin')::date >= b."from_day"
    AND (r."start_date" AT TIME ZONE 'Europe/Berlin')::date < b."until_day"
)
UPDATE "charging_requests" r SET "cost" = c."cost"
FROM "costs" c
WHERE r."transaction_id" = c."transaction_id" AND r."cost" IS DISTINCT FROM c."cost";
