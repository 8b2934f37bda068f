import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateContractBody } from '../../../contract/contracts';
import { contracts } from '../db/schema/contracts';
import { mailOutbox } from '../db/schema/mail';
import { paymentCheckouts, paymentEvents } from '../db/schema/payments';
import { createMailSender } from '../mail/sender';
import { contractPlace, stripeSepaContractBody, type ContractPlace } from '../test/contract-fixtures';
import { createHarness, type Harness } from '../test/harness';
import { startSmtpPeer, type SmtpPeer } from '../test/smtp-peer';
import { testWebhookSecret } from './providers';
import { languageOf } from './test-checkout-page';
import { signPayload } from './webhook';

let h: Harness;
let peer: SmtpPeer;
let token: string;
let own: ContractPlace;
const base = '/contract-management';
const webhook = '/bff/payments/stripe/webhook';

async function createContract(over: Partial<CreateContractBody> = {}) {
  const b = stripeSepaContractBody(own, over);
  const res = await h.request('POST', `${base}/create-contract`, { body: b, token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { key: res.body.data.contractKey as string, email: b.email, body: b };
}

const contractRow = async (key: string) => (await h.db.select().from(contracts).where(eq(contracts.contractKey, key)))[0]!;

/** Sends what the outbox holds to the SMTP peer and answers the checkout link of the newest mail to `to`. */
async function mailedLink(to: string, subject: RegExp): Promise<string> {
  await createMailSender({ db: h.db, smtpUrl: peer.url, log: () => {} }).flush();
  const mail = await peer.waitFor((m) => m.to.includes(to) && subject.test(m.subject), 5000);
  const link = /https?:\/\/\S+\/zahlung\/testmodus\?session=\S+/.exec(mail.text)?.[0];
  expect(link, mail.text).toBeTruthy();
  const url = new URL(link!);
  return url.pathname + url.search;
}

const form = (fields: Record<string, string>) =>
  h.app.request(fields.path!, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'de-DE,de;q=0.9' },
    body: new URLSearchParams(Object.entries(fields).filter(([k]) => k !== 'path')).toString(),
  });

async function completeCheckout(path: string, iban = 'DE89 3704 0044 0532 0130 00') {
  const res = await form({ path, accountHolder: 'Jürgen Zahler', iban, accept: 'yes' });
  expect(res.status).toBe(303);
  return res.headers.get('location')!;
}

beforeAll(async () => {
  peer = await startSmtpPeer();
  h = await createHarness({ REDO_SEPA_INTERVAL_MINUTES: 15 });
  token = (await h.login('operator')).access_token;
  own = await contractPlace(h, token);
});
afterAll(async () => {
  await h?.close();
  await peer?.close();
});

describe('the mandate in test mode', () => {
  it('mails the checkout link on create; the checkout page sets the mandate and leads to the success page', async () => {
    const { key, email } = await createContract();
    expect((await contractRow(key)).stripeSepaPaymentDetailsAreConfigured).toBe(false);
    const path = await mailedLink(email, /^SEPA-Lastschriftmandat erteilen/);

    const page = await h.app.request(path, { headers: { 'accept-language': 'en-GB,en;q=0.8,de;q=0.5' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('I authorise');
    expect(html).toMatch(/<label for="iban">IBAN<\/label>/);

    // A wrong check digit, a missing holder and no acceptance: the form again, in German, nothing stored.
    const wrong = await form({ path, accountHolder: ' ', iban: 'DE89 3704 0044 0532 0130 01' });
    expect(wrong.status).toBe(200);
    const wrongHtml = await wrong.text();
    expect(wrongHtml).toContain('Diese IBAN ist nicht gültig.');
    expect(wrongHtml).toContain('Bitte geben Sie den Kontoinhaber an.');
    expect(wrongHtml).toContain('Bitte erteilen Sie das Mandat');
    expect(wrongHtml).toContain('value="DE89 3704 0044 0532 0130 01"');
    expect((await contractRow(key)).stripeSepaPaymentDetailsAreConfigured).toBe(false);

    const location = await completeCheckout(path);
    const sessionId = new URLSearchParams(path.split('?')[1]).get('session')!;
    expect(location).toBe(`/stripesepa/configure/success/${sessionId}`);
    const row = await contractRow(key);
    expect(row.stripeSepaPaymentDetailsAreConfigured).toBe(true);
    expect(row.contractMandateReference).toMatch(/^[A-Z0-9]{16}$/);
    expect(row.contractMandateDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(row.stripePaymentMethodId).toMatch(/^pm_test_/);
    expect(row.stripeCustomerId).toMatch(/^cus_test_/);
    const [checkout] = await h.db.select().from(paymentCheckouts).where(eq(paymentCheckouts.sessionId, sessionId));
    expect(checkout.ibanLast4).toBe('3000');

    // The link again: done, so straight on to the success page; no second mandate.
    const again = await h.app.request(path);
    expect(again.status).toBe(303);
    expect((await completeCheckout(path, 'FR14 2004 1010 0505 0001 3M0 2606')).endsWith(sessionId)).toBe(true);
    expect((await contractRow(key)).contractMandateReference).toBe(row.contractMandateReference);
  });

  it('refuses an IBAN outside SEPA and answers an unknown link with 404', async () => {
    const { key, email } = await createContract();
    const path = await mailedLink(email, /^SEPA-Lastschriftmandat erteilen/);
    const res = await form({ path, accountHolder: 'Jürgen Zahler', iban: 'BR15 0000 0000 0000 1093 2840 814P 2', accept: 'yes' });
    expect(await res.text()).toContain('SEPA-Raums');
    expect((await contractRow(key)).stripeSepaPaymentDetailsAreConfigured).toBe(false);
    const unknown = await h.app.request('/zahlung/testmodus?session=cs_test_nothing');
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).errorCodeResponse).toBe('CHECKOUT_NOT_FOUND');
  });

  it('takes German unless English comes first', () => {
    expect(languageOf(undefined)).toBe('de');
    expect(languageOf('fr-FR, en;q=0.5')).toBe('en');
    expect(languageOf('en;q=0.4, de;q=0.6')).toBe('de');
    expect(languageOf('en-US')).toBe('en');
  });
});

describe('redo payment details setup', () => {
  const redo = (key: string) => h.request('POST', `${base}/reconfigure-stripe-sepa/${key}`, { token });

  async function configuredContract() {
    const c = await createContract();
    await completeCheckout(await mailedLink(c.email, /^SEPA-Lastschriftmandat erteilen/));
    return c;
  }

  it('mails a new link, refuses a second request within the interval, and the new mandate replaces the old', async () => {
    const { key, email } = await configuredContract();
    const before = await contractRow(key);
    expect((await redo(key)).status).toBe(200);
    const second = await redo(key);
    expect(second.status).toBe(429);
    expect(second.body.errorCodeResponse).toBe('TOO_MANY_REQUESTS');
    const retryAfter = Number(second.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);

    const path = await mailedLink(email, /^Neues SEPA-Lastschriftmandat/);
    const location = await completeCheckout(path);
    expect(location).toContain('/stripesepa/reconfigure/success/');
    const after = await contractRow(key);
    expect(after.contractMandateReference).not.toBe(before.contractMandateReference);
    expect(after.stripePaymentMethodId).not.toBe(before.stripePaymentMethodId);
    expect(after.stripeCustomerId).toBe(before.stripeCustomerId);
    expect(after.version).toBeGreaterThan(before.version);
    await createMailSender({ db: h.db, smtpUrl: peer.url, log: () => {} }).flush();
    const confirmation = await peer.waitFor((m) => m.to.includes(email) && m.subject.startsWith('Ihr neues SEPA-Lastschriftmandat'), 5000);
    expect(confirmation.text).toContain(after.contractMandateReference!);

    // After the interval it may be asked again.
    await h.db
      .update(contracts)
      .set({ lastSepaRedoAt: new Date(Date.now() - 16 * 60_000) })
      .where(eq(contracts.contractKey, key));
    expect((await redo(key)).status).toBe(200);
  });

  it('answers each refusal with its code and changes nothing', async () => {
    const sepa = await createContract({
      paymentMethod: 'SEPA',
      contractPaymentDetails: { contractMandateReference: 'MREF-1', contractIban: 'DE89370400440532013000' },
    });
    const unconfigured = await createContract();
    const expired = await configuredContract();
    await h.db.update(contracts).set({ contractStatus: 'EXPIRED' }).where(eq(contracts.contractKey, expired.key));
    const mailsBefore = (await h.db.select().from(mailOutbox)).length;
    for (const [key, code] of [
      [sepa.key, 'PAYMENT_METHOD_DATA_INCONSISTENCY'],
      [unconfigured.key, 'STRIPE_SEPA_NOT_CONFIGURED'],
      [expired.key, 'CONTRACT_STATUS_DATA_INCONSISTENCY'],
    ] as const) {
      const res = await redo(key);
      expect([res.status, res.body.errorCodeResponse]).toEqual([409, code]);
      expect((await contractRow(key)).lastSepaRedoAt).toBeNull();
    }
    expect((await h.db.select().from(mailOutbox)).length).toBe(mailsBefore);
    expect((await redo('no-such-contract')).status).toBe(404);
  });
});

describe('a change of payment method by an edit', () => {
  async function edit(key: string, b: CreateContractBody) {
    const row = await contractRow(key);
    const res = await h.request('PUT', `${base}/update-contract`, {
      body: { ...b, endCustomerId: own.manual ? row.endCustomerId : undefined, contractKey: key, version: row.version },
      token,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  const flush = () => createMailSender({ db: h.db, smtpUrl: peer.url, log: () => {} }).flush();
  const linkMails = (to: string) => peer.mails.filter((m) => m.to.includes(to) && m.subject.startsWith('SEPA-Lastschriftmandat erteilen'));
  const sessionOf = (path: string) => new URLSearchParams(path.split('?')[1]).get('session')!;

  it('mails the checkout link once when an edit makes the contract STRIPE_SEPA; editing it further sends nothing and keeps the mandate', async () => {
    const { key, email, body: b } = await createContract({ paymentMethod: 'BANK_TRANSFER' });
    await flush();
    await peer.waitFor((m) => m.to.includes(email) && m.subject.startsWith('Ihr Ladevertrag'), 5000);
    expect(linkMails(email)).toHaveLength(0);

    const stripe = { ...b, paymentMethod: 'STRIPE_SEPA' as const };
    await edit(key, stripe);
    const path = await mailedLink(email, /^SEPA-Lastschriftmandat erteilen/);
    const pending = await contractRow(key);
    expect(pending.stripeSepaPaymentDetailsAreConfigured).toBe(false);
    expect(pending.stripeCustomerId).toMatch(/^cus_test_/);
    // An edit of another field while the link is out: no second link, the first still works.
    await edit(key, { ...stripe, lastName: 'Umbenannt' });
    await flush();
    expect(linkMails(email)).toHaveLength(1);
    expect(await completeCheckout(path)).toBe(`/stripesepa/configure/success/${sessionOf(path)}`);

    const configured = await contractRow(key);
    expect(configured.stripeSepaPaymentDetailsAreConfigured).toBe(true);
    // The wizard sends no mandate reference for STRIPE_SEPA: the provider's mandate stays whatever the form sends.
    await edit(key, { ...stripe, firstName: 'Jörg', contractPaymentDetails: { contractMandateReference: 'FROM-THE-FORM' } });
    await flush();
    expect(linkMails(email)).toHaveLength(1);
    const after = await contractRow(key);
    expect(after.firstName).toBe('Jörg');
    expect([after.stripeSepaPaymentDetailsAreConfigured, after.contractMandateReference, after.contractMandateDate]).toEqual([
      true,
      configured.contractMandateReference,
      configured.contractMandateDate,
    ]);
    expect([after.stripePaymentMethodId, after.stripeMandateCompletedAt]).toEqual([
      configured.stripePaymentMethodId,
      configured.stripeMandateCompletedAt,
    ]);
    const queued = await h.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email));
    expect(queued.filter((m) => m.subject.startsWith('SEPA-Lastschriftmandat erteilen'))).toHaveLength(1);
  });

  it('ends the Stripe mandate when an edit changes the method away, voids open links, and asks for a new mandate on the way back', async () => {
    // Configured, then paid by SEPA: the form's mandate counts, the provider's is gone, so nothing is collected by Stripe.
    const a = await createContract();
    await completeCheckout(await mailedLink(a.email, /^SEPA-Lastschriftmandat erteilen/));
    const configured = await contractRow(a.key);
    await edit(a.key, {
      ...a.body,
      paymentMethod: 'SEPA',
      contractPaymentDetails: { contractMandateReference: 'MREF-EDIT-1', contractIban: 'DE89370400440532013000' },
    });
    const sepa = await contractRow(a.key);
    expect(sepa).toMatchObject({
      paymentMethod: 'SEPA',
      contractMandateReference: 'MREF-EDIT-1',
      contractMandateDate: null,
      stripeSepaPaymentDetailsAreConfigured: false,
      stripePaymentMethodId: null,
      stripeMandateCompletedAt: null,
      stripeCustomerId: configured.stripeCustomerId,
    });

    // A link still open when the method changes is void: completing it later sets nothing.
    const b = await createContract();
    const oldPath = await mailedLink(b.email, /^SEPA-Lastschriftmandat erteilen/);
    await edit(b.key, { ...b.body, paymentMethod: 'BANK_TRANSFER' });
    const late = await form({ path: oldPath, accountHolder: 'Jürgen Zahler', iban: 'DE89 3704 0044 0532 0130 00', accept: 'yes' });
    expect(late.status).toBe(404);
    const transfer = await contractRow(b.key);
    expect([transfer.paymentMethod, transfer.stripeSepaPaymentDetailsAreConfigured, transfer.contractMandateReference]).toEqual([
      'BANK_TRANSFER',
      false,
      null,
    ]);

    // Back to STRIPE_SEPA: a new link, the provider's customer reused.
    await edit(b.key, b.body);
    await flush();
    expect(linkMails(b.email)).toHaveLength(2);
    const newLink = new URL(/https?:\/\/\S+\/zahlung\/testmodus\?session=\S+/.exec(linkMails(b.email)[1]!.text)![0]);
    const newPath = newLink.pathname + newLink.search;
    expect(sessionOf(newPath)).not.toBe(sessionOf(oldPath));
    await completeCheckout(newPath);
    const back = await contractRow(b.key);
    expect(back.stripeSepaPaymentDetailsAreConfigured).toBe(true);
    expect(back.stripeCustomerId).toBe(transfer.stripeCustomerId);
  });
});

describe('the webhook', () => {
  const secret = () => testWebhookSecret(h.env);
  const send = (payload: string, signature?: string) =>
    h.request('POST', webhook, { raw: payload, headers: signature ? { 'stripe-signature': signature } : {} });

  async function pendingCheckout() {
    const c = await createContract();
    const path = await mailedLink(c.email, /^SEPA-Lastschriftmandat erteilen/);
    return { ...c, sessionId: new URLSearchParams(path.split('?')[1]).get('session')! };
  }

  /** Marks a test checkout as completed (what its page does) without raising the event. */
  async function acceptOnPage(sessionId: string, at: Date, reference: string) {
    await h.db
      .update(paymentCheckouts)
      .set({ completedAt: at, paymentMethodId: `pm_test_${reference}`, mandateReference: reference, ibanLast4: '3000' })
      .where(eq(paymentCheckouts.sessionId, sessionId));
  }

  const completed = (eventId: string, sessionId: string, created: Date) =>
    JSON.stringify({
      id: eventId,
      object: 'event',
      type: 'checkout.session.completed',
      created: Math.floor(created.getTime() / 1000),
      data: { object: { id: sessionId, object: 'checkout.session', mode: 'setup', setup_intent: 'seti_test_x' } },
    });

  it('refuses a missing or forged signature with 400 and changes nothing', async () => {
    const { key, sessionId } = await pendingCheckout();
    await acceptOnPage(sessionId, new Date(), 'FORGEDREF0000001');
    const payload = completed('evt_forged_1', sessionId, new Date());
    for (const signature of [undefined, signPayload('whsec_someone_else', payload), signPayload(secret(), `${payload} `), 't=1,v1=00']) {
      const res = await send(payload, signature);
      expect(res.status).toBe(400);
      expect(res.body.errorCodeResponse).toBe('WEBHOOK_SIGNATURE_INVALID');
    }
    // A signature older than Stripe's tolerance (5 minutes) is a replay.
    const stale = await send(payload, signPayload(secret(), payload, Math.floor(Date.now() / 1000) - 600));
    expect(stale.status).toBe(400);
    expect((await contractRow(key)).stripeSepaPaymentDetailsAreConfigured).toBe(false);
    expect(await h.db.select().from(paymentEvents).where(eq(paymentEvents.eventId, 'evt_forged_1'))).toEqual([]);

    const valid = await send(payload, signPayload(secret(), payload));
    expect([valid.status, valid.body.data.result]).toEqual([200, 'applied']);
    expect((await contractRow(key)).contractMandateReference).toBe('FORGEDREF0000001');
  });

  it('applies each event once, also delivered twice or out of order', async () => {
    const first = await pendingCheckout();
    const { key } = first;
    await acceptOnPage(first.sessionId, new Date(Date.now() - 60_000), 'OLDERMANDATE0001');
    // A redo's newer checkout of the same contract.
    await h.db.update(contracts).set({ stripeSepaPaymentDetailsAreConfigured: true }).where(eq(contracts.contractKey, key));
    expect((await redo(key)).status).toBe(200);
    const [newer] = await h.db
      .select()
      .from(paymentCheckouts)
      .where(and(eq(paymentCheckouts.contractKey, key), eq(paymentCheckouts.purpose, 'reconfigure')));
    await acceptOnPage(newer.sessionId, new Date(), 'NEWERMANDATE0001');

    const newerEvent = completed('evt_newer', newer.sessionId, new Date());
    const olderEvent = completed('evt_older', first.sessionId, new Date(Date.now() - 60_000));
    expect((await send(newerEvent, signPayload(secret(), newerEvent))).body.data.result).toBe('applied');
    const version = (await contractRow(key)).version;
    // Late: the older mandate does not come back.
    expect((await send(olderEvent, signPayload(secret(), olderEvent))).body.data.result).toBe('ignored');
    // Twice: answered, nothing done.
    expect((await send(newerEvent, signPayload(secret(), newerEvent))).body.data.result).toBe('duplicate');
    const row = await contractRow(key);
    expect([row.contractMandateReference, row.version]).toEqual(['NEWERMANDATE0001', version]);
    const confirmations = await h.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.subject, 'Ihr neues SEPA-Lastschriftmandat / Your new SEPA direct-debit mandate'));
    expect(confirmations.filter((m) => m.toAddress === first.email)).toHaveLength(1);
  });

  it('keeps and ignores events it does not handle, and those of checkouts not its own', async () => {
    const other = JSON.stringify({ id: 'evt_other', type: 'customer.created', created: 1_700_000_000, data: { object: { id: 'cus_1' } } });
    expect((await send(other, signPayload(secret(), other))).body.data.result).toBe('ignored');
    const foreign = completed('evt_foreign', 'cs_test_not_ours', new Date());
    expect((await send(foreign, signPayload(secret(), foreign))).body.data.result).toBe('ignored');
    const garbage = '{"no":"event"}';
    expect((await send(garbage, signPayload(secret(), garbage))).status).toBe(400);
  });

  const redo = (key: string) => h.request('POST', `${base}/reconfigure-stripe-sepa/${key}`, { token });
});
