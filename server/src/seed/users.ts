import { ADMIN_ROLE, OPERATOR_ROLE } from '../../../contract/common';
import type { dashboardUsers } from '../db/schema/auth';
import type { customers } from '../db/schema/customers';
import type { operators } from '../db/schema/operators';
import { ascii, type SeedContext } from './common';
import { PLATFORM_CUSTOMER_ID } from './customers';
import { firstNames, lastNames, positions } from './german-data';

type Login = { email: string; passwordHash: string };
/** The demo accounts (seed.ts) with their password hashes, and the hash every other user's password gets. */
export interface DemoLogins {
  admin: Login;
  operator: Login;
  partner: Login;
  unverified: Login;
  others: { passwordHash: string };
}

/** The demo accounts, then two users per company (bound to its operator when the company is of Operator type). */
export function drawDashboardUsers(
  ctx: SeedContext,
  customerRows: (typeof customers.$inferInsert)[],
  operatorRows: (typeof operators.$inferInsert)[],
  logins: DemoLogins,
): (typeof dashboardUsers.$inferInsert)[] {
  const { rnd } = ctx;
  const userRows: (typeof dashboardUsers.$inferInsert)[] = [];
  const operatorCustomer = customerRows[1];
  const partnerCustomer = customerRows[2];
  userRows.push(
    {
      id: rnd.uuid(),
      email: logins.admin.email,
      passwordHash: logins.admin.passwordHash,
      firstName: 'Ada',
      lastName: 'Administrator',
      role: 'Plattform-Administration',
      customerId: PLATFORM_CUSTOMER_ID,
      isAdmin: true,
      roles: [ADMIN_ROLE, OPERATOR_ROLE],
    },
    {
      id: rnd.uuid(),
      email: logins.operator.email,
      passwordHash: logins.operator.passwordHash,
      firstName: 'Olaf',
      lastName: 'Betreiber',
      role: 'Leiter Elektromobilität',
      customerId: operatorCustomer.customerId,
      operatorId: operatorRows.find((o) => o.customerId === operatorCustomer.customerId)!.cpoId,
      roles: [OPERATOR_ROLE],
    },
    {
      id: rnd.uuid(),
      email: logins.partner.email,
      passwordHash: logins.partner.passwordHash,
      firstName: 'Paula',
      lastName: 'Partner',
      role: 'Geschäftsführerin',
      customerId: partnerCustomer.customerId,
      roles: [OPERATOR_ROLE],
    },
    {
      id: rnd.uuid(),
      email: logins.unverified.email,
      passwordHash: logins.unverified.passwordHash,
      firstName: 'Ines',
      lastName: 'Inaktiv',
      role: 'Sachbearbeitung',
      customerId: partnerCustomer.customerId,
      roles: [OPERATOR_ROLE],
      verified: false,
    },
  );
  for (const customer of customerRows.slice(1)) {
    for (let i = 0; i < 2; i++) {
      const first = rnd.pick(firstNames);
      const last = rnd.pick(lastNames);
      const ownOp = operatorRows.find((o) => o.customerId === customer.customerId)!;
      userRows.push({
        id: rnd.uuid(),
        email: `${ascii(first)}.${ascii(last)}${i}@${ascii(customer.companyName)}.example`,
        passwordHash: logins.others.passwordHash,
        firstName: first,
        lastName: last,
        role: rnd.pick(positions),
        customerId: customer.customerId,
        operatorId: customer.customerType === 'Operator' ? ownOp.cpoId : null,
        roles: [OPERATOR_ROLE],
        productPackage: 'Prosessional',
      });
    }
  }
  return userRows;
}
