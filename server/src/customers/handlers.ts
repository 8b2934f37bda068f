import type { z } from 'zod/mini';
import {
  INVITATION_TTL_SECONDS,
  type addDashboardUserBodySchema,
  type createCustomerBodySchema,
  type CreateDashboardUserAnswer,
} from '../../../contract/customers';
import { findUserByEmail, replaceResetToken } from '../auth/queries';
import { notFound } from '../auth/scope';
import { opaqueToken } from '../auth/tokens';
import { sha256 } from '../db/stored-hash';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../db/pg-errors';
import { transactionLock } from '../db/sql-helpers';
import type { Env } from '../env';
import { ApiError } from '../http/errors';
import { enqueueMail } from '../db/mail-outbox';
import {
  findCustomerByContractKey,
  findCustomerById,
  findFirstUser,
  insertCustomer,
  insertInvitedUser,
  INVITED_PASSWORD_HASH,
} from './queries';
import { randomUUID } from 'node:crypto';

/**
 * The rules of customer management (spec 3 §2-§8) and the errors that say why not: customer
 * numbers and e-mail addresses are unique (without case); every new dashboard account gets an
 * invitation, a one-time link to set its password on the reset page, valid INVITATION_TTL_SECONDS.
 */

const customerIdInUse = (customerId: string) =>
  new ApiError(409, 'CUSTOMER_ALREADY_PRESENT_WITH_CUSTOMER_ID', `Customer id ${customerId} is already in use`, { customerId });
const emailInUse = (email: string) => new ApiError(409, 'USER_ALREADY_REGISTERED', `E-mail ${email} is already in use`, { email });

/** Customer numbers and e-mails are checked and taken one request at a time, across instances. */
const lockAccounts = (db: Db) => transactionLock(db, 'customers-and-accounts');

interface Invitee {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
}
interface InvitingCustomer {
  customerId: string;
  companyName: string;
}

/**
 * A new one-time link for the account (its older links stop working) and the mail that carries
 * it, in the request's transaction: the mail goes out only if the account was written.
 */
async function invite(db: Db, env: Env, customer: InvitingCustomer, user: Invitee, to: 'operations' | 'person', now: Date) {
  const token = opaqueToken();
  await replaceResetToken(db, user.id, sha256(token), now, new Date(now.getTime() + INVITATION_TTL_SECONDS * 1000));
  const link = `${env.PUBLIC_URL}/passwort-vergessen?token=${encodeURIComponent(token)}`;
  const name = `${user.firstName} ${user.lastName}`;
  const text =
    to === 'operations'
      ? [
          'Hallo Operations-Team,',
          '',
          `für den Kunden ${customer.companyName} (Kundennummer ${customer.customerId}) wurde ein Zugang zum CPO Cockpit angelegt:`,
          '',
          `${name} <${user.email}>`,
          '',
          'Bitte leiten Sie den folgenden Link an diese Person weiter. Damit vergibt sie ihr Passwort und kann sich danach anmelden.',
          'Der Link ist 7 Tage gültig und nur einmal verwendbar:',
          '',
          link,
          '',
          'Viele Grüße',
          'Ihr CPO-Cockpit-Team',
        ]
      : [
          `Hallo ${name},`,
          '',
          `Sie wurden für ${customer.companyName} zum CPO Cockpit eingeladen.`,
          'Über den folgenden Link vergeben Sie Ihr Passwort; danach melden Sie sich mit Ihrer E-Mail-Adresse an.',
          'Der Link ist 7 Tage gültig und nur einmal verwendbar:',
          '',
          link,
          '',
          'Viele Grüße',
          'Ihr CPO-Cockpit-Team',
        ];
  await enqueueMail(db, {
    to: to === 'operations' ? env.OPERATIONS_EMAIL : user.email,
    from: env.MAIL_FROM,
    subject:
      to === 'operations' ? `CPO Cockpit: Zugang für ${customer.companyName} (${customer.customerId})` : 'CPO Cockpit: Ihre Einladung',
    text: text.join('\n'),
  });
}

/** The name of the unique index a write violated (on the error or, through drizzle's wrapper, its cause). */
function violatedConstraint(err: unknown): string {
  for (let e = err, i = 0; i < 4 && e && typeof e === 'object'; i++, e = (e as { cause?: unknown }).cause) {
    const name = (e as { constraint?: unknown }).constraint;
    if (typeof name === 'string') return name;
  }
  return '';
}

/** Runs `write`; a unique index that a racing request won reads as the rule it enforces. */
async function uniquely<T>(write: () => Promise<T>, customerId: string, email: string): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // The e-mail index can be taken by a change of e-mail, which does not take this area's lock.
    throw violatedConstraint(err).includes('email') ? emailInUse(email) : customerIdInUse(customerId);
  }
}

/**
 * The create-customer wizard (spec 3 §2): the customer (contract CREATED_UNSIGNED, so the detail
 * offers to resend the invitation until it is used) and its first dashboard user, whose link goes
 * to the operations team ('The credentials for the user has been sent to the operations team').
 */
export async function createCustomer(
  db: Db,
  env: Env,
  body: z.output<typeof createCustomerBodySchema>,
): Promise<CreateDashboardUserAnswer> {
  await lockAccounts(db);
  if (await findCustomerById(db, body.customerId)) throw customerIdInUse(body.customerId);
  if (await findUserByEmail(db, body.email)) throw emailInUse(body.email);
  const now = new Date();
  const customer = { customerId: body.customerId, companyName: body.companyName };
  const userId = await uniquely(
    async () => {
      await insertCustomer(db, {
        ...customer,
        customerType: body.customerType,
        careOf: body.address.careOf,
        street: body.address.street,
        zipCode: body.address.zipCode,
        city: body.address.city,
        countryCode: 'DE',
        contractKey: randomUUID(),
        contractStatus: 'CREATED_UNSIGNED',
        createManualEndCustomerId: body.createManualEndCustomerId,
        createdAt: now,
      });
      return insertInvitedUser(db, { customerId: body.customerId, ...userOf(body) }, now);
    },
    body.customerId,
    body.email,
  );
  await invite(db, env, customer, { id: userId, ...userOf(body) }, 'operations', now);
  return { customerId: body.customerId, userId };
}

const userOf = (body: z.output<typeof addDashboardUserBodySchema> | z.output<typeof createCustomerBodySchema>) => ({
  firstName: body.firstName,
  lastName: body.lastName,
  email: body.email,
  role: body.role,
  productPackage: body.productPackage,
});

/** 'add external user' (spec 3 §2): a dashboard user of an existing customer, invited by mail to the person. */
export async function addDashboardUser(
  db: Db,
  env: Env,
  body: z.output<typeof addDashboardUserBodySchema>,
): Promise<CreateDashboardUserAnswer> {
  await lockAccounts(db);
  const customer = await findCustomerById(db, body.customerId);
  if (!customer) throw notFound('customer', body.customerId);
  if (await findUserByEmail(db, body.email)) throw emailInUse(body.email);
  const now = new Date();
  const userId = await uniquely(
    () => insertInvitedUser(db, { customerId: customer.customerId, ...userOf(body) }, now),
    customer.customerId,
    body.email,
  );
  await invite(db, env, customer, { id: userId, ...userOf(body) }, 'person', now);
  return { customerId: customer.customerId, userId };
}

/**
 * Resend invitation (spec 3 §2, §7): while the customer's contract is CREATED_UNSIGNED, a new link
 * for its first dashboard user goes to the operations team; the old link stops working. Only for
 * an account that has never set a password: an active one gets nothing (409).
 */
export async function resendInvitation(db: Db, env: Env, contractKey: string) {
  const customer = await findCustomerByContractKey(db, contractKey);
  if (!customer) throw notFound('customer', contractKey);
  if (customer.contractStatus !== 'CREATED_UNSIGNED')
    throw new ApiError(409, 'CONFLICT', 'The invitation was accepted already', { contractStatus: customer.contractStatus });
  const user = await findFirstUser(db, customer.customerId);
  if (!user) throw new ApiError(409, 'CONFLICT', 'The customer has no dashboard user to invite');
  // A set-password link for an account that has a password would let whoever reads operations' mail take it over.
  if (user.verified || user.passwordHash !== INVITED_PASSWORD_HASH)
    throw new ApiError(409, 'CONFLICT', 'The account has set its password already; its owner can reset it from the sign-in page');
  await invite(db, env, customer, user, 'operations', new Date());
}
