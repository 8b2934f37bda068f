import { describe, expect, it } from 'vitest';
import { hashPassword, hashStationPassword, isStationPasswordHash, verifyStationPassword } from './passwords';

describe('station password hashes', () => {
  it('accept the password and nothing else, salted (two hashes of one password differ)', async () => {
    const hash = hashStationPassword('Zr4-station-secret');
    expect(isStationPasswordHash(hash)).toBe(true);
    expect(hash).not.toBe(hashStationPassword('Zr4-station-secret'));
    expect(await verifyStationPassword('Zr4-station-secret', hash)).toBe(true);
    expect(await verifyStationPassword('Zr4-station-secreT', hash)).toBe(false);
    expect(await verifyStationPassword('', hash)).toBe(false);
    expect(await verifyStationPassword('Zr4-station-secret', 'sha256$broken')).toBe(false);
  });

  it('still check an older scrypt hash', async () => {
    const old = await hashPassword('older-secret');
    expect(isStationPasswordHash(old)).toBe(false);
    expect(await verifyStationPassword('older-secret', old)).toBe(true);
    expect(await verifyStationPassword('other', old)).toBe(false);
  });
});
