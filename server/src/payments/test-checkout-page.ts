import { electronicFormatIBAN, isSEPACountry, isValidIBAN } from 'ibantools';
import de from '../../../locales/de.json' with { type: 'json' };
import en from '../../../locales/en.json' with { type: 'json' };

/**
 * The test mode's checkout page: what Stripe's hosted checkout asks in setup mode for SEPA (the
 * account holder, the IBAN, the accepted mandate text), server-rendered, in German or English by
 * the browser's Accept-Language, with no script and no inline style (the app's CSP holds).
 */

export type Lang = 'de' | 'en';
type Messages = typeof de.payments.checkout;
const messages: Record<Lang, Messages> = { de: de.payments.checkout, en: en.payments.checkout };

/** German unless the browser prefers English over German (the customers are German first). */
export function languageOf(acceptLanguage: string | undefined): Lang {
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, i) => {
      const [tag, ...params] = part.trim().toLowerCase().split(';');
      const q = Number(/q=([\d.]+)/.exec(params.join(';'))?.[1] ?? 1);
      return { lang: tag!.split('-')[0], q: Number.isFinite(q) ? q : 0, i };
    })
    .filter((x) => (x.lang === 'de' || x.lang === 'en') && x.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  return ranked[0]?.lang === 'en' ? 'en' : 'de';
}

export interface CheckoutForm {
  accountHolder: string;
  iban: string;
  accept: boolean;
}
export type FormErrors = Partial<Record<keyof CheckoutForm, keyof Messages>>;

/** The form's rules: a holder's name of at most 70 characters (SEPA's limit), a valid IBAN of a SEPA country, the mandate accepted. */
export function checkForm(form: CheckoutForm): { errors: FormErrors; iban: string } {
  const errors: FormErrors = {};
  const holder = form.accountHolder.trim();
  if (holder === '') errors.accountHolder = 'holderRequired';
  else if (holder.length > 70) errors.accountHolder = 'holderTooLong';
  const iban = electronicFormatIBAN(form.iban) ?? '';
  if (!isValidIBAN(iban)) errors.iban = 'ibanInvalid';
  else if (!isSEPACountry(iban.slice(0, 2))) errors.iban = 'ibanNotSepa';
  if (!form.accept) errors.accept = 'acceptRequired';
  return { errors, iban };
}

const escape = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
const fill = (text: string, values: Record<string, string>) => text.replace(/\{(\w+)\}/g, (_, k: string) => escape(values[k] ?? ''));

export interface PageInput {
  lang: Lang;
  action: string;
  creditor: string;
  contractNumber: string;
  form: CheckoutForm;
  errors: FormErrors;
}

function field(id: keyof CheckoutForm, label: string, input: string, error: string | undefined, hint?: string) {
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return `<div class="field">
<label for="${id}">${escape(label)}</label>
${hint ? `<p class="hint" id="${id}-hint">${escape(hint)}</p>` : ''}
${input.replace('/>', `${described ? ` aria-describedby="${described}"` : ''}${error ? ' aria-invalid="true"' : ''} />`)}
${error ? `<p class="error" id="${id}-error">${escape(error)}</p>` : ''}
</div>`;
}

export function checkoutPage(p: PageInput): string {
  const m = messages[p.lang];
  const err = (k: keyof CheckoutForm) => (p.errors[k] ? m[p.errors[k]] : undefined);
  const hasErrors = Object.keys(p.errors).length > 0;
  const values = { creditor: p.creditor, contractNumber: p.contractNumber };
  return `<!doctype html>
<html lang="${p.lang}">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>${escape(m.title)}</title>
<link rel="stylesheet" href="${TEST_CHECKOUT_CSS}" />
</head>
<body>
<main>
<h1>${escape(m.title)}</h1>
<p class="test-mode" role="note">${escape(m.testMode)}</p>
<p>${fill(m.intro, values)}</p>
${hasErrors ? `<div class="summary" role="alert" tabindex="-1"><p>${escape(m.errorSummary)}</p></div>` : ''}
<form method="post" action="${escape(p.action)}" novalidate>
${field('accountHolder', m.accountHolder, `<input id="accountHolder" name="accountHolder" autocomplete="name" maxlength="140" required value="${escape(p.form.accountHolder)}" />`, err('accountHolder'))}
${field('iban', m.iban, `<input id="iban" name="iban" autocomplete="off" spellcheck="false" maxlength="42" required value="${escape(p.form.iban)}" />`, err('iban'), m.ibanHint)}
<section aria-labelledby="mandate-heading">
<h2 id="mandate-heading">${escape(m.mandateHeading)}</h2>
<p class="mandate">${fill(m.mandateText, values)}</p>
</section>
<div class="field check">
<input type="checkbox" id="accept" name="accept" value="yes"${p.form.accept ? ' checked' : ''}${err('accept') ? ' aria-invalid="true" aria-describedby="accept-error"' : ''} />
<label for="accept">${escape(m.accept)}</label>
${err('accept') ? `<p class="error" id="accept-error">${escape(err('accept')!)}</p>` : ''}
</div>
<button type="submit">${escape(m.submit)}</button>
</form>
</main>
</body>
</html>`;
}

export const TEST_CHECKOUT_CSS = '/zahlung/testmodus.css';

/** The page's look: readable at 320 px, 44 px targets, a visible focus ring, contrast ≥ 4.5:1. */
export const checkoutCss = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1a1a1a;background:#f4f5f7}
main{max-width:36rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:8px;box-shadow:0 1px 3px #0002}
h1{font-size:1.5rem;margin:0 0 1rem}
h2{font-size:1.1rem;margin:1.5rem 0 .5rem}
.test-mode{padding:.5rem .75rem;background:#fff4d6;border-left:4px solid #a86b00}
.summary{padding:.5rem .75rem;background:#fde8e8;border-left:4px solid #b42318;margin:1rem 0}
.field{margin:1rem 0}
label{display:block;font-weight:600}
.hint{margin:.25rem 0;color:#4a4a4a;font-size:.9rem}
input:not([type=checkbox]){width:100%;min-height:44px;padding:.5rem .75rem;font:inherit;border:1px solid #6b6b6b;border-radius:6px}
input[aria-invalid=true]{border-color:#b42318}
.check{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem}
.check input{width:24px;height:24px;margin:10px}
.check label{font-weight:400}
.check .error{flex-basis:100%}
.error{color:#b42318;margin:.25rem 0}
.mandate{font-size:.95rem;color:#333}
button{min-height:44px;padding:.5rem 1.25rem;font:inherit;font-weight:600;color:#fff;background:#0b5cad;border:0;border-radius:6px;cursor:pointer}
:focus-visible{outline:3px solid #0b5cad;outline-offset:2px}
`;
