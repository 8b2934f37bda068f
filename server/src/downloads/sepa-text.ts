/**
 * The characters a SEPA file may carry (EPC's basic Latin set, which every bank of the scheme
 * takes: letters a-z A-Z, digits, / - ? : ( ) . , ' + and space) and the lengths the DK's GBIC
 * schema allows. Names and texts are made to fit instead of refused: German umlauts and ß are
 * transliterated (ä → ae), other accents dropped (é → e), and what is left outside the set is
 * replaced, so a debtor's name is never lost and never breaks the file.
 */

/** The GBIC maxima this file fills: names (Max140Text_SDD: 70), remittance (Max140Text), ids (Max35Text). */
export const SEPA_MAX = { name: 70, remittance: 140, id: 35 } as const;

const OUTSIDE_SET = /[^A-Za-z0-9/\-?:().,'+ ]/g;
/** The SEPA ids' pattern (GBIC's MndtId, EndToEndId, MsgId): the set, 1 to 35 characters. */
export const SEPA_ID = /^[A-Za-z0-9/\-?:().,'+ ]{1,35}$/;

/** Spelled out rather than stripped: German names keep their letters (Müller → Mueller, not Muller). */
const SPELLED: Record<string, string> = {
  ä: 'ae',
  ö: 'oe',
  ü: 'ue',
  Ä: 'Ae',
  Ö: 'Oe',
  Ü: 'Ue',
  ß: 'ss',
  ẞ: 'SS',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ð: 'd',
  Ð: 'D',
  þ: 'th',
  Þ: 'Th',
  '&': '+',
  '‘': "'",
  '’': "'",
  '‚': "'",
  '´': "'",
  '`': "'",
  '"': "'",
  '“': "'",
  '”': "'",
  '„': "'",
  '–': '-',
  '—': '-',
  _: '-',
};

/**
 * `text` in the SEPA set, spaces collapsed, cut to `max` characters; `fallback` when nothing of it
 * is left (a name of only characters the set cannot carry still gets a name).
 */
export function sepaText(text: string, max: number, fallback = '.'): string {
  const spelled = [...text].map((ch) => SPELLED[ch] ?? ch).join('');
  const plain = spelled.normalize('NFD').replace(/\p{M}/gu, '').replace(/\s+/g, ' ').replace(OUTSIDE_SET, '.').trim();
  const cut = plain.slice(0, max).trim();
  return cut || fallback;
}
