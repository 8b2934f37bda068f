import type { Hono } from 'hono';
import { dropdownQuerySchema, dropdownValues, type DropdownEntry } from '../../../contract/dropdown';
import { requireAuth } from '../auth/middleware';
import { ok } from '../http/respond';
import type { AppBindings } from '../http/types';
import { parseQuery } from '../http/validate';

export function registerDropdownRoutes(bff: Hono<AppBindings>) {
  bff.get('/dropdown-configuration', requireAuth, (c) => {
    const { mappingTypes } = parseQuery(c, dropdownQuerySchema);
    const entries: DropdownEntry[] = [...new Set(mappingTypes)].map((type) => ({
      type,
      listValues: [...dropdownValues[type]],
    }));
    return ok(c, entries);
  });
}
