import { registerBillWrites } from './features/bills/api/bill-writes';
import { registerOperatorWrites } from './features/operators/api/operator-writes';
import { registerStationWrites } from './features/stations/api/station-writes';
import { registerUserWrites } from './features/users/api/user-writes';

/**
 * Every area's outbox write kinds, registered before the outbox replays anything (routes/_app.tsx
 * awaits this module), so labels, failure texts and refreshes work for a write replayed on any
 * screen after a reload. A new area with offline writes adds its register call here.
 */
registerStationWrites();
registerOperatorWrites();
registerUserWrites();
registerBillWrites();
