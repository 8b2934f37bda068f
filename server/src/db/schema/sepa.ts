import { sql } from 'drizzle-orm';
import { check, date, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { tsz } from './columns';
import { contracts } from './contracts';
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
    /**
     * The sequence type the date's file gave the mandate when it was first made (issue 35), kept so
     * that the date's file reads the same when made again, whatever was collected since.
     */
    sequenceType: text('sequence_type').$type<'FRST' | 'RCUR'>(),
  },
  // The key's first columns are also the index of the FRST question: the mandate's first-made date.
  (t) => [
    primaryKey({ name: 'sepa_mandate_collections_pk', columns: [t.cpoId, t.mandateReference, t.iban, t.collectionDate] }),
    check('sepa_mandate_collections_sequence_type_chk', sql`sequence_type is null or sequence_type in ('FRST', 'RCUR')`),
  ],
);

/**
 * When a contract's direct-debit mandate (its reference or IBAN) last changed (issue 35): written by
 * the trigger `sepa_mandate_changed` on contracts (migration 0023), whatever wrote the contract. A
 * paid SEPA bill collected before it was collected under another mandate, so it does not make the
 * new one RCUR. No row: the mandate is the one the contract was created with.
 */
export const sepaMandateChanges = pgTable('sepa_mandate_changes', {
  contractKey: text('contract_key')
    .primaryKey()
    .references(() => contracts.contractKey, { onDelete: 'cascade' }),
  changedAt: tsz('changed_at').notNull().defaultNow(),
});
