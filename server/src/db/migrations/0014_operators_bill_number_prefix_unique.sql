-- An operator's own bill-number prefix is unique across operators, case-insensitively: bill
-- numbers are unique across all bills (bills_bill_number_uq), so two operators with 'SW-' would
-- make every bill of the second fail. An operator whose prefix an older operator already has
-- (only possible before this index) loses it and numbers as 'RE-{year}-{cpoId}-' again.
UPDATE "operators" AS o SET "bill_number_prefix" = NULL
WHERE o."bill_number_prefix" IS NOT NULL AND EXISTS (
  SELECT 1 FROM "operators" AS p
  WHERE upper(p."bill_number_prefix") = upper(o."bill_number_prefix")
    AND (p."created_at", p."cpo_id") < (o."created_at", o."cpo_id")
);--> statement-breakpoint
CREATE UNIQUE INDEX "operators_bill_number_prefix_uq" ON "operators" USING btree (upper("bill_number_prefix"));
