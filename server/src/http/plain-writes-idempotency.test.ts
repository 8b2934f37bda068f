import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, paged } from '../../../contract/common';
import { operatorListRowSchema } from '../../../contract/operators';
import { locations } from '../db/schema/locations';
import { mailOutbox } from '../db/schema/mail';
import { rfidTags } from '../db/schema/rfid';
import { connectors } from '../db/schema/stations';
import { demoAccounts } from '../seed/seed';
import { createHarness, type Harness } from '../test/harness';

/**
 * The plain writes of the dialogs (creating and editing a location, creating stations, the support
 * mail, RFID cards, the admin's clean) send an Idempotency-Key with every press: a resend after a
 * lost answer is answered from the record of the first and applies nothing twice.
 */

let h: Harness;
let operator: string;
let admin: string;
let cpoId: string;

beforeAll(async () => {
  h = await createHarness();
  operator = (await h.login('operator')).access_token;
  admin = (await h.login('admin')).access_token;
  const res = await h.request('GET', '/bff/cpos?page=0&size=10000', { token: operator });
  cpoId = envelope(paged(operatorListRowSchema)).parse(res.body).data.response[0]!.cpoId;
});
afterAll(() => h?.close());

/** The same request twice under one key: the second is the first's answer, replayed. */
async function twice(method: string, path: string, token: string, body: unknown, key: string) {
  const send = () => h.request(method, path, { token, body, headers: { 'idempotency-key': key } });
  const first = await send();
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  const again = await send();
  expect(again.status).toBe(200);
  expect(again.headers.get('idempotency-replayed')).toBe('true');
  expect(again.body).toEqual(first.body);
  return first.body.data as Record<string, unknown>;
}

const newLocation = (name: string) => ({
  locationName: name,
  locationAddress: { street: 'Testweg 1', zipCode: '01067', city: 'Dresden', careOf: '' },
  cpoId,
  cpoName: 'whatever',
  wallBoxesData: [],
  isEmsConnected: false,
});

describe('plain writes under one Idempotency-Key', () => {
  it('create one location for a location created twice', async () => {
    const created = await twice('POST', '/bff/locations/location', operator, newLocation('Idempotent Garage'), 'loc-create-1');
    const rows = await h.db.select().from(locations).where(eq(locations.locationName, 'Idempotent Garage'));
    expect(rows.map((r) => r.locationId)).toEqual([created.locationId]);
  });

  it('move a location on by one version for an edit sent twice', async () => {
    const { locationId } = (await h.request('POST', '/bff/locations/location', { token: operator, body: newLocation('Vor dem Edit') })).body
      .data as { locationId: string };
    const [before] = await h.db.select().from(locations).where(eq(locations.locationId, locationId));
    const edit = {
      locationId,
      locationName: 'Nach dem Edit',
      locationAddress: { street: 'Testweg 2', zipCode: '01067', city: 'Dresden' },
      version: before!.version,
    };
    await twice('PUT', '/bff/locations/update-location', operator, edit, 'loc-update-1');
    const [after] = await h.db.select().from(locations).where(eq(locations.locationId, locationId));
    expect(after!.version).toBe(before!.version + 1);
  });

  it('create the stations once', async () => {
    const [loc] = await h.db.select().from(locations).where(eq(locations.locationName, 'Idempotent Garage'));
    const body = {
      locationName: loc!.locationName,
      locationId: loc!.locationId,
      numOfChargingStations: 2,
      chargingStationModel: 'ABL eMH1',
    };
    const created = await twice('POST', '/bff/connectors/create-cp', operator, body, 'stations-1');
    const rows = await h.db.select().from(connectors).where(eq(connectors.locationId, loc!.locationId));
    expect(new Set(rows.map((r) => r.cpId))).toEqual(new Set(created.cpIds as string[]));
  });

  it('queue the support mail once', async () => {
    const subject = 'Idempotent: Ladestation defekt';
    const body = { subject, body: 'Parkplatz 12', senderEmailAddress: demoAccounts.operator.email, senderFullName: 'Olaf Betreiber' };
    await twice('POST', '/bff/mail/send', operator, body, 'mail-1');
    expect(
      await h.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.subject, `[Support] ${subject}`)),
    ).toHaveLength(1);
  });

  it('save the RFID cards once, and answer the admin clean from its record', async () => {
    const cards = [{ serialNumber: 'SN-IDEM-1', rfidTag: 'TAG-IDEM-1' }];
    expect(await twice('POST', '/contract-management/auth/save-rfid-tags', admin, cards, 'rfid-1')).toEqual({ saved: 1 });
    expect(
      await h.db
        .select()
        .from(rfidTags)
        .where(inArray(rfidTags.serialId, ['SN-IDEM-1'])),
    ).toHaveLength(1);
    await twice('PUT', '/bff/charging-requests/clean', admin, { minutesThreshold: 60 }, 'clean-1');
  });
});
