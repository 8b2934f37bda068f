ALTER TABLE "bills" ADD COLUMN "issued_document" jsonb;--> statement-breakpoint
-- Bills issued before this migration keep a null snapshot: the mapping from rows to the document
-- lives in TypeScript (bills/document.ts), so such a bill takes its snapshot once, from the data of
-- its first drawing (what it would have printed before this change), and keeps it from then on. A
-- bill whose PDF is stored already keeps that PDF's bytes.
COMMENT ON COLUMN "bills"."issued_document" IS 'What the invoice says, frozen at issue (bills/document.ts IssuedInvoice)';
