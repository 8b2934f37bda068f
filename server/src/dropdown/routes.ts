import { dropdownQuerySchema, dropdownValues, type DropdownEntry } from '../../../contract/dropdown';
import { ok } from '../http/respond';
import { parseQuery } from '../http/validate';
import { routeTable } from '../http/route-table';

export const dropdownRoutes = routeTable('bff', [
  {
    method: 'GET',
    path: '/dropdown-configuration',
    access: 'user',
    handler: (c) => {
      const { mappingTypes } = parseQuery(c, dropdownQuerySchema);
      const entries: DropdownEntry[] = [...new Set(mappingTypes)].map((type) => ({
        type,
        listValues: [...dropdownValues[type]],
      }));
      return ok(c, entries);
    },
  },
]);
