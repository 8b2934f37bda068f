import type { OperatorDetail } from '../../../contract/operators';

export const LINE_KEYS = ['lineOne', 'lineTwo', 'lineThree', 'lineFour'] as const;
export type LineKey = (typeof LINE_KEYS)[number];
export type TemplateLines = OperatorDetail['billingTemplateHeader'];

/** The four lines of a header or footer in order, '' where empty. */
export const linesOf = (lines: TemplateLines | null | undefined): string[] => LINE_KEYS.map((k) => lines?.[k]?.trim() ?? '');
