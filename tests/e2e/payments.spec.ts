import { expect, test, type Page } from '@playwright/test';
import { bearer, signIn } from './helpers';
import { waitForMail } from './mail-sink';

/**
 * Issue 26: as an operator, redo the SEPA mandate of a STRIPE_SEPA contract, open the link from the
 * customer's mail, complete the test mode's checkout, land on the reconfigure success page; the
 * action then waits for the interval, and the server refuses a second redo within it. The SEPA
 * file (downloaded, validated against the German banks' schema) is in downloads.spec.ts.
 */

interface Detail {
  contractKey: string;
  contractStatus: string;
  userType: string;
  paymentMethod: string | null;
  stripeSepaPaymentDetailsAreConfigured: boolean;
  email: string;
}

async function stripeSepaContract(page: Page): Promise<Detail> {
  const auth = { Authorization: await bearer(page) };
  const list = await page.request.get('/contract-management/contracts/operator?page=0&size=100', { headers: auth });
  const rows = ((await list.json()) as { data: { response: { contractKey: string }[] } }).data.response;
  for (const row of rows) {
    const res = await page.request.get(`/contract-management/contract/id/${encodeURIComponent(row.contractKey)}`, { headers: auth });
    const d = ((await res.json()) as { data: Detail }).data;
    if (
      d.paymentMethod === 'STRIPE_SEPA' &&
      d.stripeSepaPaymentDetailsAreConfigured &&
      d.userType !== 'AD_HOC' &&
      ['CREATED_UNSIGNED', 'CREATED_SIGNED', 'ACTIVE', 'BLOCKED'].includes(d.contractStatus)
    )
      return d;
  }
  throw new Error('no configured STRIPE_SEPA contract in the seed');
}

const shots = process.env.PAYMENTS_SCREENSHOTS;
const shot = async (page: Page, name: string) => {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png` });
};

test('redo a mandate: mail, test checkout, reconfigure success, then the action waits', async ({ page, browser }) => {
  await signIn(page, 'operator');
  const contract = await stripeSepaContract(page);
  await page.goto(`/nutzer/${encodeURIComponent(contract.contractKey)}`);
  await page.getByRole('button', { name: 'Aktionen' }).click();
  await shot(page, 'menu');
  await page.getByRole('menuitem', { name: 'Zahlungsdaten neu einrichten' }).click();
  const confirm = page.getByRole('dialog', { name: 'Zahlungsdaten neu einrichten' });
  await expect(confirm).toContainText(contract.email);
  await shot(page, 'confirm');
  await confirm.getByRole('button', { name: 'Link senden' }).click();
  const sent = page.getByRole('alertdialog', { name: 'Link gesendet' });
  await expect(sent).toBeVisible();
  await shot(page, 'sent');
  await sent.getByRole('button').click();

  const mail = await waitForMail((m) => m.to.includes(contract.email) && m.subject.startsWith('Neues SEPA-Lastschriftmandat'));
  const link = new URL(/https?:\/\/\S+\/zahlung\/testmodus\?session=\S+/.exec(mail.text)![0]);
  // The customer opens it in a browser of their own. The mail names the server's PUBLIC_URL; the
  // e2e server listens on its own port.
  const customerContext = await browser.newContext({ locale: 'de-DE', baseURL: test.info().project.use.baseURL });
  const customer = await customerContext.newPage();
  await customer.goto(link.pathname + link.search);
  await expect(customer.getByRole('heading', { level: 1 })).toHaveText('SEPA-Lastschriftmandat erteilen');
  await customer.getByRole('button', { name: 'Mandat erteilen' }).click();
  await expect(customer.getByText('Diese IBAN ist nicht gültig.')).toBeVisible();
  await shot(customer, 'checkout-errors');
  await customer.getByLabel('Kontoinhaber').fill('Erika Mustermann');
  await customer.getByLabel('IBAN').fill('DE89 3704 0044 0532 0130 00');
  await customer.getByLabel('Ich erteile dieses Mandat.').check();
  await customer.getByRole('button', { name: 'Mandat erteilen' }).click();
  await expect(customer).toHaveURL(/\/stripesepa\/reconfigure\/success\/cs_test_/);
  await expect(customer.getByRole('heading', { name: 'Lastschriftmandat erstellt' })).toBeVisible();
  await shot(customer, 'success');
  await customerContext.close();

  // The interval: offered again only once it has run out.
  await page.goto(`/nutzer/${encodeURIComponent(contract.contractKey)}`);
  await page.getByRole('button', { name: 'Aktionen' }).click();
  await expect(page.getByRole('menuitem', { name: /Zahlungsdaten neu einrichten \(wieder ab \d{2}:\d{2} Uhr\)/ })).toBeDisabled();
  await shot(page, 'waiting');
  await page.keyboard.press('Escape');

  // The server keeps the interval too: a second request within it (another tab, another device) is 429.
  const again = await page.request.post(`/contract-management/reconfigure-stripe-sepa/${encodeURIComponent(contract.contractKey)}`, {
    headers: { Authorization: await bearer(page) },
  });
  expect(again.status()).toBe(429);
  expect(((await again.json()) as { errorCodeResponse: string }).errorCodeResponse).toBe('TOO_MANY_REQUESTS');
  expect(Number(again.headers()['retry-after'])).toBeGreaterThan(0);
});
