import { and, asc, count, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_PACKAGE } from '../../../contract/customers';
import { dashboardUsers, passwordResetTokens } from '../db/schema/auth';
import { customers } from '../db/schema/customers';
import { mailOutbox } from '../db/schema/mail';
import { operators } from '../db/schema/operators';
import { createMailSender, type MailSender } from '../mail/sender';
import { demoAccounts } from '../seed/seed';
import { createHarness, type Harness } from '../test/harness';
import { changedTables, fingerprint } from '../test/route-matrix';
import { startSmtpPeer, type SmtpPeer } from '../test/smtp-peer';

let h: Harness;
let admin: string;
let operator: string;
let partner: string;
let peer: SmtpPeer;
let sender: MailSender;

beforeAll(async () => {
  h = await createHarness();
  admin = (await h.login('admin')).access_token;
  operator = (await h.login('operator')).access_token;
  partner = (await h.login('partner')).access_token;
  peer = await startSmtpPeer();
  sender = createMailSender({ db: h.db, smtpUrl: peer.url, log: () => {} });
});
afterAll(async () => {
  sender?.stop();
  await peer?.close();
  await h?.close();
});

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as Record<string, unknown>;

let serial = 0;
const newCustomer = (extra: Record<string, unknown> = {}) => {
  serial++;
  return {
    isNewCustomer: true,
    customerId: `NEU${serial}X`,
    customerType: 'Operator',
    companyName: `Neustrom ${serial} GmbH`,
    address: { careOf: 'Hausverwaltung Kurz', street: 'Am Markt 5', zipCode: '04109', city: 'Leipzig' },
    createManualEndCustomerId: false,
    firstName: 'Nora',
    lastName: `Neumann${serial}`,
    email: `nora.neumann.${serial}@neustrom.example`,
    role: 'Geschäftsführerin',
    productPackage: PRODUCT_PACKAGE,
    sendEmail: false,
    ...extra,
  };
};
const create = (body: unknown, token = admin) => h.request('POST', '/bff/cpos/create-dashboard-user', { token, body });

/** The set-password link of the newest mail to `to` that arrived at the SMTP peer. */
async function linkTo(to: string): Promise<{ token: string; text: string }> {
  await sender.flush();
  const mails = peer.mails.filter((m) => m.to.includes(to));
  const mail = mails.at(-1) ?? (await peer.waitFor((m) => m.to.includes(to)));
  const match = /\/passwort-vergessen\?token=([A-Za-z0-9_-]+)/.exec(mail.text);
  if (!match) throw new Error(`no link in: ${mail.text}`);
  expect(mail.text).toContain(`${h.env.PUBLIC_URL}/passwort-vergessen?token=`);
  return { token: match[1], text: mail.text };
}
const setPassword = (token: string, newPassword = 'Neu-Passwort-2026') =>
  h.request('POST', '/user-service/reset-password', { body: { token, newPassword } });
const signIn = (email: string, password = 'Neu-Passwort-2026') =>
  h.request('POST', '/user-service/login', { body: { username: email, password, origin: 'dashboard' } });

/** An operator for `customerId`, created by the admin (the operator wizard's call). */
async function createOperatorFor(customerId: string, name: string): Promise<string> {
  const res = await h.request('POST', '/bff/cpos/create-operator', {
    token: admin,
    body: {
      cpoName: name,
      cpoAddress: { street: 'Am Markt 5', zipCode: '04109', city: 'Leipzig' },
      customerId,
      createManualEndCustomerId: false,
      contactPersonDetails: {
        contactPersonName: 'Nora Neumann',
        contactPersonPosition: 'Buchhaltung',
        contactPersonPhone: '0341123456',
        contactPersonEmail: 'buchhaltung@neustrom.example',
      },
      withBillingInfo: false,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.cpoId;
}

describe('who may call customer management', () => {
  it('admins only: operators and partners get 403 on every call, anonymous callers 401', async () => {
    const [someCustomer] = await h.db.select().from(customers).orderBy(asc(customers.customerId)).limit(1);
    const calls: [string, string, unknown?][] = [
      ['GET', '/bff/cpos/get-all-customer?page=0&size=10'],
      ['GET', `/bff/cpos/get-customer/${someCustomer.customerId}`],
      ['GET', `/bff/cpos/get-dashboard-user/${someCustomer.customerId}?page=0&size=10`],
      ['POST', '/bff/cpos/create-dashboard-user', newCustomer()],
      [
        'POST',
        '/bff/cpos/create-dashboard-user',
        { ...newCustomer(), isNewCustomer: false, customerId: someCustomer.customerId, email: 'x.y@neustrom.example' },
      ],
      ['POST', `/contract-management/send-invitation-email/${someCustomer.contractKey}`],
    ];
    const before = await fingerprint(h.db);
    for (const [method, path, body] of calls) {
      for (const token of [operator, partner]) {
        const res = await h.request(method, path, { token, body });
        // The resend serves end customers' contracts too (contracts/routes.ts): to an operator or a
        // partner a customer's contract key is one of none of their contracts.
        const refusal = path.includes('send-invitation-email') ? [404, 'CONTRACT_NOT_FOUND'] : [403, 'FORBIDDEN'];
        expect([res.status, res.body.errorCodeResponse], `${method} ${path}`).toEqual(refusal);
      }
      expect((await h.request(method, path, { body })).status).toBe(401);
    }
    expect(changedTables(before, await fingerprint(h.db)).filter((t) => t !== 'throttles')).toEqual([]);
  });
});

describe('creating a customer', () => {
  it('stores the customer (contract CREATED_UNSIGNED) and an account that cannot sign in yet, and mails the link to the operations team', async () => {
    const body = newCustomer();
    const res = await create(body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.customerId).toBe(body.customerId);
    const [customer] = await h.db.select().from(customers).where(eq(customers.customerId, body.customerId));
    expect(customer).toMatchObject({
      companyName: body.companyName,
      customerType: 'Operator',
      careOf: 'Hausverwaltung Kurz',
      street: 'Am Markt 5',
      zipCode: '04109',
      city: 'Leipzig',
      contractStatus: 'CREATED_UNSIGNED',
      createManualEndCustomerId: false,
    });
    expect(customer.contractKey).toBeTruthy();
    const [user] = await h.db.select().from(dashboardUsers).where(eq(dashboardUsers.email, body.email));
    expect(user).toMatchObject({
      customerId: body.customerId,
      verified: false,
      isAdmin: false,
      productPackage: 'Prosessional',
      role: 'Geschäftsführerin',
    });
    const [mail] = await h.db.select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(1);
    expect(mail.toAddress).toBe(h.env.OPERATIONS_EMAIL);
    expect(mail.textBody).toContain(body.email);
    expect(mail.textBody).toContain(body.customerId);
    // Not even a guess of a password signs in before the link is used.
    expect((await signIn(body.email, '!invited')).status).toBe(401);

    const detail = await h.request('GET', `/bff/cpos/get-customer/${body.customerId}`, { token: admin });
    expect(detail.body.data).toEqual({
      customerId: body.customerId,
      companyName: body.companyName,
      customerType: 'Operator',
      address: { careOf: 'Hausverwaltung Kurz', street: 'Am Markt 5', zipCode: '04109', city: 'Leipzig' },
      contractKey: customer.contractKey,
      contractStatus: 'CREATED_UNSIGNED',
      createManualEndCustomerId: false,
    });
    const list = await h.request('GET', '/bff/cpos/get-all-customer?page=0&size=10', { token: admin });
    expect(list.body.data.response[0]).toEqual({
      customerId: body.customerId,
      companyName: body.companyName,
      customerType: 'Operator',
      firstName: 'Nora',
      lastName: body.lastName,
    });
    const [{ n }] = await h.db.select({ n: count() }).from(customers);
    expect(list.body.data.totalNumberOfRecords).toBe(n);
    const users = await h.request('GET', `/bff/cpos/get-dashboard-user/${body.customerId}?page=0&size=10`, { token: admin });
    expect(users.body.data).toEqual({
      totalNumberOfRecords: 1,
      response: [
        { id: user.id, firstName: 'Nora', lastName: body.lastName, email: body.email, role: 'Geschäftsführerin', activated: false },
      ],
    });
  });

  it('takes a customer without c/o and a Partner type; the manual end-customer-id flag is kept', async () => {
    const body = newCustomer({
      customerType: 'Partner',
      createManualEndCustomerId: true,
      address: { street: 'Hafenweg 2', zipCode: '20457', city: 'Hamburg' },
    });
    expect((await create(body)).status).toBe(200);
    const [customer] = await h.db.select().from(customers).where(eq(customers.customerId, body.customerId));
    expect(customer).toMatchObject({ customerType: 'Partner', careOf: null, createManualEndCustomerId: true });
  });

  it('refuses bad input with the field and its code, and stores nothing', async () => {
    const before = await fingerprint(h.db);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ customerId: 'NEU-1' }, 'customerId', 'alphanumeric'],
      [{ customerId: '' }, 'customerId', 'required'],
      [{ firstName: ' ' }, 'firstName', 'required'],
      [{ lastName: undefined }, 'lastName', 'required'],
      [{ email: '' }, 'email', 'emailRequired'],
      [{ email: 'nora@' }, 'email', 'emailFormat'],
      [{ role: '' }, 'role', 'required'],
      [{ companyName: '' }, 'companyName', 'required'],
      [{ address: { street: 'Am Markt 5', zipCode: '0410A', city: 'Leipzig' } }, 'address.zipCode', 'digitsOnly'],
      [{ address: { street: '', zipCode: '04109', city: 'Leipzig' } }, 'address.street', 'required'],
      [{ customerType: 'Kunde' }, 'customerType', ''],
      [{ productPackage: 'Basic' }, 'productPackage', ''],
    ];
    for (const [extra, path, code] of cases) {
      const res = await create(newCustomer(extra));
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.body.errorCodeResponse).toBe('VALIDATION_ERROR');
      const issue = res.body.issues.find((i: { path: string }) => i.path === path);
      expect(issue, `${path} in ${JSON.stringify(res.body.issues)}`).toBeTruthy();
      if (code) expect(issue.message).toBe(code);
    }
    expect(changedTables(before, await fingerprint(h.db))).toEqual([]);
  });

  it('refuses a customer id in use (also in other case) and an e-mail in use, and stores nothing', async () => {
    const first = newCustomer();
    expect((await create(first)).status).toBe(200);
    const before = await fingerprint(h.db);
    const sameId = await create(newCustomer({ customerId: first.customerId.toLowerCase() }));
    expect(sameId.status).toBe(409);
    expect(sameId.body.errorCodeResponse).toBe('CUSTOMER_ALREADY_PRESENT_WITH_CUSTOMER_ID');
    const sameEmail = await create(newCustomer({ email: demoAccounts.operator.email.toUpperCase() }));
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body.errorCodeResponse).toBe('USER_ALREADY_REGISTERED');
    const invitedEmail = await create(newCustomer({ email: first.email }));
    expect(invitedEmail.body.errorCodeResponse).toBe('USER_ALREADY_REGISTERED');
    expect(changedTables(before, await fingerprint(h.db))).toEqual([]);
  });
});

describe("the create wizard's checks", () => {
  it('answer whether a customer number and an e-mail are free as a boolean (200), never a 404; admins only', async () => {
    const first = newCustomer();
    expect((await create(first)).status).toBe(200);
    const idFree = (id: string, token = admin) => h.request('POST', `/bff/cpos/customer-id/${id}/validate`, { token });
    const emailFree = (email: string, token = admin) => h.request('POST', '/bff/cpos/validate-email', { token, body: { email } });
    expect(await idFree(first.customerId.toLowerCase())).toMatchObject({ status: 200, body: { data: false } });
    expect(await idFree('NIEMALS1')).toMatchObject({ status: 200, body: { data: true } });
    expect(await emailFree(demoAccounts.operator.email.toUpperCase())).toMatchObject({ status: 200, body: { data: false } });
    expect(await emailFree(first.email)).toMatchObject({ status: 200, body: { data: false } });
    expect(await emailFree('frei.123@neustrom.example')).toMatchObject({ status: 200, body: { data: true } });
    expect((await emailFree('kein-mail')).status).toBe(400);
    expect((await idFree('NEU-1')).status).toBe(400);
    expect((await idFree('NIEMALS1', operator)).status).toBe(403);
    expect((await emailFree('frei.123@neustrom.example', partner)).status).toBe(403);
  });
});

describe('the invitation', () => {
  it('arrives at the SMTP peer with a link that sets the password once; the account then signs in with its claims and sees its operator only', async () => {
    const body = newCustomer();
    expect((await create(body)).status).toBe(200);
    const { token, text } = await linkTo(h.env.OPERATIONS_EMAIL);
    expect(text).toContain(`${body.firstName} ${body.lastName} <${body.email}>`);
    expect(text).toContain('7 Tage');
    const [mail] = peer.mails.filter((m) => m.to.includes(h.env.OPERATIONS_EMAIL)).slice(-1);
    expect(mail.subject).toBe(`CPO Cockpit: Zugang für ${body.companyName} (${body.customerId})`);

    // An Operator-type customer with two operators: its account sees the first one.
    const first = await createOperatorFor(body.customerId, `Neustrom ${serial} Nord`);
    const second = await createOperatorFor(body.customerId, `Neustrom ${serial} Süd`);

    expect((await setPassword(token)).status).toBe(200);
    const again = await setPassword(token, 'Noch-ein-Passwort-2026');
    expect(again.status).toBe(400);
    expect(again.body.errorCodeResponse).toBe('TOKEN_INVALID');
    expect((await signIn(body.email, 'Noch-ein-Passwort-2026')).status).toBe(401);

    const login = await signIn(body.email);
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    const claims = claimsOf(login.body.data.access_token);
    expect(claims).toMatchObject({
      email: body.email,
      preferred_username: body.email,
      name: `${body.firstName} ${body.lastName}`,
      role_company: body.role,
      customer_id: body.customerId,
      customer_type: 'Operator',
      company_name: body.companyName,
      c_o: 'Hausverwaltung Kurz',
      street_name: 'Am Markt 5',
      postcode: '04109',
      city: 'Leipzig',
      country: 'DE',
      cpo_id: [first],
      createManualEndCustomerId: false,
      resource_access: { dashboard_oli_move: { roles: ['oli_move_operator'] } },
    });
    const userToken = login.body.data.access_token;
    const ops = await h.request('GET', '/bff/cpos?page=0&size=100', { token: userToken });
    expect(ops.body.data.response.map((o: { cpoId: string }) => o.cpoId)).toEqual([first]);
    expect((await h.request('GET', `/bff/cpos/${second}/operator-details`, { token: userToken })).status).toBe(404);
    expect((await h.request('GET', '/bff/cpos/get-all-customer', { token: userToken })).status).toBe(403);

    // The invitation is accepted: no resend any more, the list shows the account as activated.
    const [customer] = await h.db.select().from(customers).where(eq(customers.customerId, body.customerId));
    expect(customer.contractStatus).toBe('CREATED_SIGNED');
    const resend = await h.request('POST', `/contract-management/send-invitation-email/${customer.contractKey}`, { token: admin });
    expect(resend.status).toBe(409);
    const users = await h.request('GET', `/bff/cpos/get-dashboard-user/${body.customerId}`, { token: admin });
    expect(users.body.data.response[0].activated).toBe(true);
  });

  it('never mails a set-password link for an account that has set its password, even while the customer is CREATED_UNSIGNED', async () => {
    const body = newCustomer();
    expect((await create(body)).status).toBe(200);
    const { token } = await linkTo(h.env.OPERATIONS_EMAIL);
    expect((await setPassword(token)).status).toBe(200);
    // A customer whose first account is active but whose contract still reads unsigned (older data, a status set by hand).
    const [customer] = await h.db
      .update(customers)
      .set({ contractStatus: 'CREATED_UNSIGNED' })
      .where(eq(customers.customerId, body.customerId))
      .returning();
    const [user] = await h.db.select().from(dashboardUsers).where(eq(dashboardUsers.email, body.email));
    const links = () => h.db.select({ n: count() }).from(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id));
    const mails = () => h.db.select({ n: count() }).from(mailOutbox);
    const [linksBefore, mailsBefore] = [await links(), await mails()];

    const resend = await h.request('POST', `/contract-management/send-invitation-email/${customer.contractKey}`, { token: admin });
    expect(resend.status).toBe(409);
    expect(resend.body.errorCodeResponse).toBe('CONFLICT');
    expect(await links()).toEqual(linksBefore);
    expect(await mails()).toEqual(mailsBefore);
    // The owner's password and session are untouched.
    expect((await signIn(body.email)).status).toBe(200);
  });

  it("a Partner-type customer's account sees all of its operators", async () => {
    const body = newCustomer({ customerType: 'Partner' });
    expect((await create(body)).status).toBe(200);
    const a = await createOperatorFor(body.customerId, `Partnerstrom ${serial} A`);
    const b = await createOperatorFor(body.customerId, `Partnerstrom ${serial} B`);
    const { token } = await linkTo(h.env.OPERATIONS_EMAIL);
    expect((await setPassword(token)).status).toBe(200);
    const login = await signIn(body.email);
    expect(claimsOf(login.body.data.access_token)).toMatchObject({ customer_type: 'Partner', cpo_id: [a, b].sort() });
    const ops = await h.request('GET', '/bff/cpos?page=0&size=100', { token: login.body.data.access_token });
    expect(ops.body.data.response.map((o: { cpoId: string }) => o.cpoId).sort()).toEqual([a, b].sort());
  });

  it('an expired link is refused and the account stays inactive', async () => {
    const body = newCustomer();
    expect((await create(body)).status).toBe(200);
    const { token } = await linkTo(h.env.OPERATIONS_EMAIL);
    const [user] = await h.db.select().from(dashboardUsers).where(eq(dashboardUsers.email, body.email));
    await h.db
      .update(passwordResetTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResetTokens.userId, user.id));
    const res = await setPassword(token);
    expect(res.status).toBe(400);
    expect(res.body.errorCodeResponse).toBe('TOKEN_INVALID');
    const [after] = await h.db.select().from(dashboardUsers).where(eq(dashboardUsers.id, user.id));
    expect(after.verified).toBe(false);
    expect((await signIn(body.email)).status).toBe(401);
  });

  it('lives 7 days', async () => {
    const body = newCustomer();
    expect((await create(body)).status).toBe(200);
    const [user] = await h.db.select().from(dashboardUsers).where(eq(dashboardUsers.email, body.email));
    const [link] = await h.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id));
    const days = (link.expiresAt.getTime() - link.createdAt.getTime()) / 86_400_000;
    expect(days).toBe(7);
  });

  it('a resend makes a new link and voids the old one', async () => {
    const body = newCustomer();
    expect((await create(body)).status).toBe(200);
    const old = await linkTo(h.env.OPERATIONS_EMAIL);
    const [customer] = await h.db.select().from(customers).where(eq(customers.customerId, body.customerId));
    const resend = await h.request('POST', `/contract-management/send-invitation-email/${customer.contractKey}`, { token: admin });
    expect(resend.status).toBe(200);
    const fresh = await linkTo(h.env.OPERATIONS_EMAIL);
    expect(fresh.token).not.toBe(old.token);
    expect(fresh.text).toContain(body.email);
    expect((await setPassword(old.token)).status).toBe(400);
    expect((await setPassword(fresh.token)).status).toBe(200);
    expect((await signIn(body.email)).status).toBe(200);
  });

  it('resend of an unknown contract key answers 404 CONTRACT_NOT_FOUND', async () => {
    const res = await h.request('POST', '/contract-management/send-invitation-email/00000000-0000-4000-8000-000000000000', {
      token: admin,
    });
    expect(res.status).toBe(404);
    expect(res.body.errorCodeResponse).toBe('CONTRACT_NOT_FOUND');
  });
});

describe('adding a dashboard user to a customer', () => {
  it("invites the person by mail; the account sees its customer's data", async () => {
    const [op] = await h.db.select().from(operators).where(eq(operators.cpoId, 'CPO1001'));
    const [customer] = await h.db.select().from(customers).where(eq(customers.customerId, op.customerId));
    const email = 'extern.pruefer@revision.example';
    const res = await create({
      isNewCustomer: false,
      customerId: customer.customerId,
      customerType: customer.customerType,
      firstName: 'Erik',
      lastName: 'Extern',
      email,
      role: 'Revision',
      productPackage: PRODUCT_PACKAGE,
      sendEmail: false,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { token, text } = await linkTo(email);
    expect(text).toContain('Hallo Erik Extern');
    expect((await setPassword(token)).status).toBe(200);
    const login = await signIn(email);
    expect(login.status).toBe(200);
    expect(claimsOf(login.body.data.access_token)).toMatchObject({ customer_id: customer.customerId, company_name: customer.companyName });
    const users = await h.request('GET', `/bff/cpos/get-dashboard-user/${customer.customerId}?page=0&size=100`, { token: admin });
    expect(users.body.data.response.map((u: { email: string }) => u.email)).toContain(email);
    // Someone else's customer's invitation status is not touched by an added user.
    const [unchanged] = await h.db.select().from(customers).where(eq(customers.customerId, customer.customerId));
    expect(unchanged.contractStatus).toBe(customer.contractStatus);
  });

  it('refuses an unknown customer (404) and an e-mail in use (409)', async () => {
    const base = { isNewCustomer: false, firstName: 'Erik', lastName: 'Extern', role: 'Revision', productPackage: PRODUCT_PACKAGE };
    const unknown = await create({ ...base, customerId: 'K99999', email: 'neu.extern@revision.example' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.errorCodeResponse).toBe('CUSTOMER_NOT_FOUND');
    const taken = await create({ ...base, customerId: 'K10001', email: demoAccounts.partner.email });
    expect(taken.status).toBe(409);
    expect(taken.body.errorCodeResponse).toBe('USER_ALREADY_REGISTERED');
    const [none] = await h.db
      .select()
      .from(dashboardUsers)
      .where(and(eq(dashboardUsers.email, 'neu.extern@revision.example')));
    expect(none).toBeUndefined();
  });

  it('pages the dashboard users of a customer and answers 404 for an unknown one', async () => {
    const page0 = await h.request('GET', '/bff/cpos/get-dashboard-user/K10001?page=0&size=1', { token: admin });
    const page1 = await h.request('GET', '/bff/cpos/get-dashboard-user/K10001?page=1&size=1', { token: admin });
    expect(page0.body.data.response).toHaveLength(1);
    expect(page0.body.data.totalNumberOfRecords).toBeGreaterThanOrEqual(2);
    expect(page1.body.data.response[0].id).not.toBe(page0.body.data.response[0].id);
    const missing = await h.request('GET', '/bff/cpos/get-dashboard-user/K99999', { token: admin });
    expect(missing.status).toBe(404);
    expect(missing.body.errorCodeResponse).toBe('CUSTOMER_NOT_FOUND');
  });
});
