import { checksumCreditorID } from 'sepa';
import type { erpValues, operators } from '../db/schema/operators';
import { address, ascii, DAY, germanIban, type SeedContext } from './common';
import { banks, firstNames, lastNames, positions } from './german-data';

/** Operator `oi` of customer `ci` (called while the customers are drawn: their draws interleave). */
export function operatorRow(
  ctx: SeedContext,
  company: { ops: string[] },
  customerId: string,
  ci: number,
  oi: number,
): typeof operators.$inferInsert {
  const { rnd, now } = ctx;
  const cpoId = `CPO${ci + 1}00${oi + 1}`;
  const opAddr = address(rnd);
  const contact = `${rnd.pick(firstNames)} ${rnd.pick(lastNames)}`;
  const [bankName, bic] = rnd.pick(banks);
  // Every operator's contracts include SEPA ones (seed/contracts.ts), so every operator collects by direct debit (issue 35).
  const preference: ('SEPA' | 'BANK_TRANSFER' | 'STRIPE_SEPA')[] =
    oi % 3 === 0 ? ['SEPA', 'BANK_TRANSFER'] : oi % 3 === 1 ? ['SEPA', 'BANK_TRANSFER'] : ['SEPA', 'STRIPE_SEPA'];
  const name = company.ops[oi];
  const row = {
    cpoId,
    cpoName: name,
    street: opAddr.street,
    careOf: oi === 1 ? `Hausverwaltung ${rnd.pick(lastNames)}` : null,
    zipCode: opAddr.zipCode,
    city: opAddr.city,
    customerId,
    createManualEndCustomerId: ci === 1,
    contactPersonName: contact,
    contactPersonPosition: rnd.pick(positions),
    contactPersonPhone: `0${rnd.digits(3)}${rnd.digits(7)}`,
    contactPersonEmail: `${ascii(contact).replace('-', '.')}@${ascii(name)}.example`,
    billingType: preference.includes('SEPA') ? ('SEPA' as const) : ('BANK' as const),
    isChargingHistoryIncluded: oi !== 2,
    paymentPreference: preference,
    iban: germanIban(rnd.digits(20)),
    bankName,
    bic,
    // The second operator of a customer once had no creditor id; its id is made from its cpoId, without a draw, so the rest of the seed stays as it was.
    creditorId:
      oi % 3 === 1
        ? checksumCreditorID(`DE00ZZZ0000${cpoId.replace(/\D/g, '').padStart(7, '0')}`)
        : checksumCreditorID(`DE${rnd.digits(2)}ZZZ0000${rnd.digits(7)}`),
    moneyCollectionGapInDays: rnd.pick([7, 14, 30]),
    headerLine1: name,
    headerLine2: opAddr.street,
    headerLine3: `${opAddr.zipCode} ${opAddr.city}`,
    headerLine4: oi === 0 ? `Tel. 0${rnd.digits(3)} ${rnd.digits(6)}` : null,
    footerLine1: `${name} · Amtsgericht ${opAddr.city} · HRB ${rnd.digits(5)}`,
    footerLine2: `${bankName} · IBAN ${germanIban(rnd.digits(20))} · BIC ${bic}`,
    footerLine3: `USt-IdNr. DE${rnd.digits(9)}`,
    footerLine4: null,
    createdAt: new Date(now.getTime() - (700 - ci * 30 - oi) * DAY),
  };
  // The VAT id the footer names (§ 14 UStG, on every invoice), taken from it: no further draw, so the rest of the seed stays as it was.
  // The footer's bank line names the operator's own account, the one its bills are paid to (one IBAN per
  // invoice, issue 35); the IBAN once drawn for it stays drawn, so the rest of the seed stays as it was.
  return { ...row, footerLine2: `${bankName} · IBAN ${row.iban} · BIC ${bic}`, vatId: row.footerLine3.slice('USt-IdNr. '.length) };
}

/** SKR03's Geldtransitkonto: Stripe's bills are posted on it until Stripe pays out (downloads/erp-export.md). */
const CLEARING_ACCOUNT = '1360';

/**
 * One or two ERP values per operator (spec 3 §3), and one per Stripe method (issue 35), copied from
 * its first value with the clearing account: no further draw, so the rest of the seed stays as it was.
 */
export function drawErpValues(ctx: SeedContext, operatorRows: (typeof operators.$inferInsert)[]): (typeof erpValues.$inferInsert)[] {
  const own = drawOwnErpValues(ctx, operatorRows);
  const stripe = operatorRows.flatMap((op) => {
    const first = own.find((e) => e.cpoId === op.cpoId)!;
    return (['STRIPE_SEPA', 'STRIPE_CARD'] as const).map((paymentMethod) => ({
      ...first,
      clearingAccountNr: CLEARING_ACCOUNT,
      paymentMethod,
    }));
  });
  return [...own, ...stripe];
}

function drawOwnErpValues(ctx: SeedContext, operatorRows: (typeof operators.$inferInsert)[]): (typeof erpValues.$inferInsert)[] {
  const { rnd } = ctx;
  return operatorRows.flatMap((op, i) =>
    (['SEPA', 'BANK_TRANSFER'] as const).slice(0, i % 2 === 0 ? 2 : 1).map((paymentMethod) => ({
      cpoId: op.cpoId,
      // DATEV reads 'Beraternummer/Mandantennummer' from it (downloads/datev.ts); the consultant number is the demo's own, no draw.
      clientNumber: `${1_234_500 + i}/${rnd.digits(5)}`,
      netLedgerAccountNr: `8${rnd.digits(3)}`,
      // Every third operator once had none (the exports refuse that, spec 3 §3); 1776 (VAT 19 %, SKR03) without a draw keeps the rest of the seed.
      taxLedgerAccountNr: i % 3 === 2 ? '1776' : `17${rnd.digits(2)}`,
      paymentMethod,
    })),
  );
}
