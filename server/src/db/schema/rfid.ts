import { index, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { tsz } from './columns';
import { contracts } from './contracts';

/** The RFID card stock (spec 2 §4, spec 3). */

export const rfidTags = pgTable(
  'rfid_tags',
  {
    id: serial('id').primaryKey(),
    serialId: text('serial_id').notNull().unique(),
    rfidTag: text('rfid_tag').notNull().unique(),
    /** Null while the card sits in stock (admin RFID management). */
    contractKey: text('contract_key').references(() => contracts.contractKey, { onDelete: 'set null' }),
    createdAt: tsz('created_at').notNull().defaultNow(),
  },
  (t) => [index('rfid_tags_contract_idx').on(t.contractKey)],
);
