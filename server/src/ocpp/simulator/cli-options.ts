import { parseArgs } from 'node:util';
import { DEFAULT_SIMULATED_STATIONS } from '../../env';

/**
 * How many of the first stations (cp_id order) `npm run simulate` leaves out: `--skip N`, else the
 * SIMULATED_STATIONS it sees, else the server's default. Those are the ones `npm start` simulates in
 * its own process; simulating them twice, the two would take each other's sockets over.
 */
export function skipFrom(args: string[], env: NodeJS.ProcessEnv): number {
  const { values } = parseArgs({ args, options: { skip: { type: 'string' } }, strict: true });
  const given = values.skip ?? env.SIMULATED_STATIONS ?? String(DEFAULT_SIMULATED_STATIONS);
  const skip = Number(given);
  if (!Number.isInteger(skip) || skip < 0) throw new Error(`--skip wants a whole number of stations from 0 up, not '${given}'`);
  return skip;
}
