import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { createStationLive } from './api/station-live';

const lives = new WeakMap<QueryClient, ReturnType<typeof createStationLive>>();

/**
 * Live status while the calling screen (the station list, a station's detail) is mounted: one
 * connection for all of them, open only while the app is online (api/station-live.ts).
 */
export function useStationLive(): void {
  const client = useQueryClient();
  useEffect(() => {
    let live = lives.get(client);
    if (!live) {
      live = createStationLive(client);
      lives.set(client, live);
    }
    return live.acquire();
  }, [client]);
}
