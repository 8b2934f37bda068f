import { date, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { tsz } from './columns';
import { operators } from './operators';

/**
 * Which direct-debit mandate (its reference and the debtor's IBAN, per creditor) a SEPA file of
 * the download center (downloads/sepa.ts) collected on which collection date. Written when the
 * file is made; a mandate is FRST in the file of its earliest collection date and RCUR in every
 * later one, so making the file for a date again gives the same sequence types.
 */
export const sepaMandateCollections = pgTable(
  'sepa_mandate_collections',
  {
    cpoId: text('cpo_id')
      .notNull()
      .references(() => operators.cpoId),
    mandateReference: text('mandate_reference').notNull(),
    iban: text('iban').notNull(),
    collectionDate: date('collection_date', { mode: 'string' }).notNull(),
    /** The GrpHdr/MsgId of the last file made for this date. */
    messageId: text('message_id').notNull(),
    /** When a file of this date first collected the mandate (not moved when the file is made again). */
    madeAt: tsz('made_at').notNull().defaultNow(),
  },
  // The key's first columns are also the index of the FRST question: the mandate's first-made date.
  (t) => [primaryKey({ name: 'sepa_mandate_collections_pk', columns: [t.cpoId, t.mandateReference, t.iban, t.collectionDate] })],
);
