import type { BillStatus } from '../../../contract/enums';

/**
 * Each bill status in its own colour (spec 3 §4), shown as the status chip's dot beside the text,
 * so the text's contrast never depends on it: paid green, open orange, generated blue, sent
 * violet, not applicable grey, disputes red.
 */
export const billStatusColours: Record<BillStatus, string> = {
  PAID: '#2e7d32',
  UNPAID: '#ed6c02',
  GENERATED: '#0277bd',
  SENT: '#7b1fa2',
  NOT_APPLICABLE: '#757575',
  DISPUTE_CREATED: '#e53935',
  DISPUTED: '#b71c1c',
};
