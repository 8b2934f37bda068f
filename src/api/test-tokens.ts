import type { TokenClaims } from '../../contract/auth';

/** Test helper: an unsigned JWT with the contract's claims (the client never verifies signatures). */
export function makeClaims(overrides: Partial<TokenClaims> = {}): TokenClaims {
  return {
    sub: 'user-1',
    name: 'Jörg Müller',
    email: 'joerg@example.com',
    preferred_username: 'joerg@example.com',
    role_company: 'Admin',
    customer_id: 'C-1',
    customer_type: 'Operator',
    company_name: 'Stadtwerke Süd',
    c_o: '',
    street_name: 'Hauptstraße',
    house_number: '1',
    postcode: '80331',
    city: 'München',
    country: 'DE',
    cpo_id: ['cpo-1'],
    createManualEndCustomerId: false,
    resource_access: { admin_oli_move: { roles: ['oli_move_admin'] } },
    exp: Math.floor(Date.now() / 1000) + 300,
    ...overrides,
  };
}

function base64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function makeJwt(payload: unknown): string {
  return `${base64Url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }))}.${base64Url(JSON.stringify(payload))}.signature`;
}
