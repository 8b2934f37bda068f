import { DEBIT_ACCOUNT_MAX } from '../../../contract/contracts';
import { LEDGER_ACCOUNT_PATTERN } from '../../../contract/operators';

/**
 * What each value of an ERP file may be (issue 25): the same rules as the inputs that write them
 * (contract/operators.ts, contract/contracts.ts) and as the schema the file follows
 * (erp-export.xsd; erp-values.test.ts compares them). The export checks every value against
 * them before its first byte, so a value written before a rule was tightened (or by another
 * client) answers a 4xx naming it rather than a file that fails its own schema.
 */

/** XML 1.0 cannot carry C0 controls but tab, CR, LF, nor U+FFFE/U+FFFF. */
export const XML_ILLEGAL_SOURCE = '[\\x01-\\x08\\x0b\\x0c\\x0e-\\x1f\\ufffe\\uffff]';
export const xmlIllegal = new RegExp(XML_ILLEGAL_SOURCE, 'u');

/** The XSD's `Text` (ids, numbers, the operator's name): 1 to 255 characters. */
export const TEXT_MAX = 255;
/** The XSD's `PersonName`: first and last name as the bill has them (each up to 200), joined by a space. */
export const NAME_MAX = 401;

/** Account patterns, as XSD patterns (whole value) and as the regular expressions that check them. */
export const ERP_PATTERNS = {
  ledgerAccount: { xsd: LEDGER_ACCOUNT_PATTERN.source.replace(/^\^|\$$/g, '').replace('\\d', '[0-9]'), expected: '4 to 8 digits' },
  debitAccount: { xsd: `[0-9]{1,${DEBIT_ACCOUNT_MAX}}`, expected: `1 to ${DEBIT_ACCOUNT_MAX} digits` },
  costCenter: { xsd: '[0-9]{1,30}', expected: '1 to 30 digits' },
} as const;
export type ErpPattern = keyof typeof ERP_PATTERNS;

/** The anchored regular expression of a pattern (XSD patterns are implicitly anchored). */
export const patternSource = (p: ErpPattern) => `^${ERP_PATTERNS[p].xsd}$`;
export const matches = (p: ErpPattern, v: string) => new RegExp(patternSource(p)).test(v);
