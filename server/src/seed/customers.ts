import type { customers } from '../db/schema/customers';
import type { operators } from '../db/schema/operators';
import { address, DAY, type SeedContext } from './common';
import { operatorRow } from './operators';

/** The platform's own customer, whose accounts are the admins. */
export const PLATFORM_CUSTOMER_ID = 'K00001';

const companies = [
  { name: 'Stadtwerke Lindenau GmbH', ops: ['Stadtwerke Lindenau Ladeservice'] },
  {
    name: 'Ladenetz Partner Süd GmbH',
    ops: ['Wohnbau Sonnenhang eG', 'Parkraum Mitte GmbH', 'Klinikum Nord Service GmbH'],
  },
  { name: 'E-Mobil Hafenkante AG', ops: ['Hafenkante Laden & Parken'] },
  { name: 'Energiegenossenschaft Rosengarten eG', ops: ['Bürgerstrom Rosengarten'] },
];

/** The platform's customer, then each company with its operators (drawn in turn: their random draws interleave). */
export function drawCustomersAndOperators(ctx: SeedContext) {
  const { rnd, now, spec } = ctx;
  const customerRows: (typeof customers.$inferInsert)[] = [
    {
      customerId: PLATFORM_CUSTOMER_ID,
      companyName: 'Cockpit Plattform GmbH',
      customerType: 'Partner',
      street: 'Friedrich-Ebert-Straße',
      houseNumber: '12',
      zipCode: '10115',
      city: 'Berlin',
      contractKey: rnd.uuid(),
      contractStatus: 'ACTIVE',
      createdAt: new Date(now.getTime() - 900 * DAY),
    },
  ];
  const operatorRows: (typeof operators.$inferInsert)[] = [];
  spec.operatorsPerCustomer.forEach((nOps, ci) => {
    const company = companies[ci];
    const customerId = `K${String(10001 + ci)}`;
    const type = ci % 2 === 0 ? 'Operator' : 'Partner';
    const addr = address(rnd);
    customerRows.push({
      customerId,
      companyName: company.name,
      customerType: type,
      street: addr.street.replace(/ \d+$/, ''),
      houseNumber: addr.street.split(' ').pop(),
      zipCode: addr.zipCode,
      city: addr.city,
      contractKey: rnd.uuid(),
      contractStatus: ci === spec.operatorsPerCustomer.length - 1 ? 'CREATED_UNSIGNED' : 'ACTIVE',
      createManualEndCustomerId: ci === 1,
      createdAt: new Date(now.getTime() - (800 - ci * 30) * DAY),
    });
    for (let oi = 0; oi < nOps; oi++) operatorRows.push(operatorRow(ctx, company, customerId, ci, oi));
  });
  return { customerRows, operatorRows };
}
