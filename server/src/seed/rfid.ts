import type { rfidTags } from '../db/schema/rfid';
import type { Random } from './random';

export type Card = { rfidTag: string; serialId: string };

/** The RFID cards: those the contracts are issued as they are drawn, then the ones left in stock. */
export function cardStock(rnd: Random) {
  const rows: (typeof rfidTags.$inferInsert)[] = [];
  const usedTags = new Set<string>();
  const newTag = () => {
    let tag: string;
    do tag = rnd.hex(8).toUpperCase();
    while (usedTags.has(tag));
    usedTags.add(tag);
    return { rfidTag: tag, serialId: `SN${String(rows.length + 100001).padStart(10, '0')}` };
  };
  return {
    rows,
    /** A new card of `contractKey`'s. */
    issue: (contractKey: string, createdAt: Date): Card => {
      const tag = newTag();
      rows.push({ ...tag, contractKey, createdAt });
      return tag;
    },
    /** `n` cards with no contract. */
    stock: (n: number) => {
      for (let i = 0; i < n; i++) rows.push({ ...newTag(), contractKey: null });
    },
  };
}
