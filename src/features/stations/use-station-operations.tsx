import { useState } from 'react';
import type { ConnectorOperationType } from '../../../contract/ocpp';
import type { ConnectorStatus } from '../../../contract/enums';
import { useSession } from '../../auth/session-context';
import { useOnlineStatus } from '../../offline/online-status';
import { lazyDialog, useDialogOpener } from '../../ui/lazy-dialog';
import { operationBlock, operationsFor } from './station-operations';

// Operations need the network anyway, so the dialog loads when first opened.
const OperationDialog = lazyDialog(() => import('./components/station-operation-dialog').then((m) => m.StationOperationDialog));

/**
 * The station operations the caller may ask for (spec 2 §2), why none can be asked for now (spec 2
 * §4, or the app is offline), and the dialog that sends one and shows the station's answer.
 */
export function useStationOperations(station: { cpId: string; connectorId: string; connectorStatus: ConnectorStatus }) {
  const { isAdmin } = useSession();
  const online = useOnlineStatus();
  const opener = useDialogOpener();
  const [request, setRequest] = useState<{ type: ConnectorOperationType; initialKey?: string }>({ type: 'GET_CONFIGURATION' });
  return {
    types: operationsFor(isAdmin),
    block: operationBlock(station.connectorStatus, online),
    open: (type: ConnectorOperationType, initialKey?: string) => {
      setRequest({ type, initialKey });
      opener.open();
    },
    elements: (
      <OperationDialog
        key={`ocpp-${opener.opening}`}
        opener={opener}
        station={{ cpId: station.cpId, connectorId: station.connectorId }}
        type={request.type}
        initialKey={request.initialKey}
      />
    ),
  };
}
