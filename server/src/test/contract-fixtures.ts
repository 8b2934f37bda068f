import { and, asc, eq, isNotNull } from 'drizzle-orm';
import type { CreateContractBody } from '../../../contract/contracts';
import { operators } from '../db/schema/operators';
import { connectors } from '../db/schema/stations';
import type { Harness } from './harness';

/**
 * Where a test's new contracts go: the first operator a token sees, whether that operator wants
 * end customer ids entered by hand, and a location of it with a parking lot of a present connector.
 */
export interface ContractPlace {
  cpoId: string;
  manual: boolean;
  locationId: string;
  lot: string;
}

export async function contractPlace(h: Harness, token: string): Promise<ContractPlace> {
  const list = await h.request('GET', '/bff/cpos?page=0&size=100', { token });
  const cpoId = list.body.data.response[0].cpoId as string;
  const [op] = await h.db.select({ manual: operators.createManualEndCustomerId }).from(operators).where(eq(operators.cpoId, cpoId));
  const [lot] = await h.db
    .select({ locationId: connectors.locationId, lot: connectors.parkingLot })
    .from(connectors)
    .where(and(eq(connectors.cpoId, cpoId), isNotNull(connectors.parkingLot), eq(connectors.removed, false)))
    .orderBy(asc(connectors.connectorId))
    .limit(1);
  return { cpoId, manual: op.manual, locationId: lot.locationId!, lot: lot.lot! };
}

let serial = 0;

/**
 * A valid `POST /contract-management/create-contract` body (spec 2 §7): a REGULAR app user at
 * `place`, billed monthly from 1 December 2026, paid by SEPA. Each call has a name, e-mail,
 * mandate reference and (where the operator wants one) end customer id of its own; `over`
 * replaces whole top-level fields.
 */
export function contractBody(place: ContractPlace, over: Partial<CreateContractBody> = {}): CreateContractBody {
  const n = ++serial;
  return {
    ...(place.manual ? { endCustomerId: `TEST${n}` } : {}),
    cpoId: place.cpoId,
    userType: 'REGULAR',
    firstName: 'Erika',
    lastName: `Mustermann${n}`,
    email: `erika.${n}@example.de`,
    contractAddress: { street: 'Hauptstraße 1', zipCode: '10115', city: 'Berlin' },
    locationId: place.locationId,
    parkingLotNumbers: [place.lot],
    authType: 'APP',
    billingType: 'WITH_BILLING',
    billingCycle: 'MONTHLY',
    contractInfo: { startDate: '2026-12-01', fixTariff: 9.9, varTariff: 0.39, onboardingFee: 49 },
    paymentMethod: 'SEPA',
    contractPaymentDetails: { contractMandateReference: `MREF-${n}`, contractIban: 'DE89370400440532013000' },
    erpSystemParameters: { debitAccountNr: '10001', costCenterNumber: '4000', vatId: '19' },
    ...over,
  };
}

/** The same paid by STRIPE_SEPA, whose mandate comes from the provider's checkout, not the form. */
export const stripeSepaContractBody = (place: ContractPlace, over: Partial<CreateContractBody> = {}): CreateContractBody =>
  contractBody(place, { paymentMethod: 'STRIPE_SEPA', contractPaymentDetails: undefined, ...over });
