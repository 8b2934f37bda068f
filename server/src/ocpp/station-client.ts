import { RPCClient } from 'ocpp-rpc';

export interface StationClientOptions {
  /** ws://host:port/ocpp */
  endpoint: string;
  identity: string;
  password: string;
  protocols?: string[];
  strictMode?: boolean;
  reconnect?: boolean;
  callTimeoutMs?: number;
}

/**
 * ocpp-rpc's client as a charge point (the simulator, the tests, the bench). Its type declarations
 * mark every option required although the library defaults them, hence the one cast here.
 */
export function stationClient(opts: StationClientOptions): RPCClient {
  return new RPCClient({
    protocols: ['ocpp1.6'],
    strictMode: true,
    ...opts,
  } as unknown as ConstructorParameters<typeof RPCClient>[0]);
}
