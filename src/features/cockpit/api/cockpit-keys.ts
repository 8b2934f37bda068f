import type { GraphParams } from '../graph-params';
import { queryRoot } from '../../../offline/query-roots';

/**
 * Query keys of the cockpit, hierarchical so a write can invalidate exactly what it touched. The
 * cockpit is kept on the device for offline use (`persist`, offline/query-roots.ts). Charging requests are
 * their own keys (src/shared/charging-requests), the location dropdown is the locations area's.
 */
export const cockpitKeys = {
  all: queryRoot('cockpit', { persist: true }),
  graphs: () => [...cockpitKeys.all, 'graph'] as const,
  graph: (params: GraphParams) => [...cockpitKeys.graphs(), params] as const,
};
