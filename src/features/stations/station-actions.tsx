import { useEffect, useRef } from 'react';
import type { SettableConnectorStatus } from '../../../contract/stations';
import { useT } from '../../i18n/i18n-context';
import { ActionMenu } from '../../ui/menu';
import type { SelectedConnector } from './station-rules';
import { useStationActions } from './use-station-actions';
import { useStationOperations } from './use-station-operations';

/** A form to open at once with what the user entered (the outbox's 'Erneut bearbeiten'). */
export type StationReopen = { edit: 'parking-lot'; lot?: string } | { edit: 'availability'; status?: SettableConnectorStatus };

export interface StationActionsProps {
  station: SelectedConnector;
  reopen?: StationReopen;
  /** Called once `reopen` has opened its form (the page drops it from the URL). */
  onReopened?: () => void;
}

/**
 * The station detail's Actions menu (spec 2 §2): assign a parking lot, change the status, and for
 * those who may (admins) change the configuration, disabled with the reason under it when the station
 * is OFFLINE or INACTIVE (spec 2 §4) or the app offline. The other operations are on the station's OCPP card.
 */
export function StationActions({ station, reopen, onReopened }: StationActionsProps) {
  const t = useT();
  const actions = useStationActions();
  const operations = useStationOperations(station);
  const mayConfigure = operations.types.includes('CHANGE_CONFIGURATION');
  const reopened = useRef(false);
  useEffect(() => {
    if (!reopen || reopened.current) return;
    reopened.current = true;
    if (reopen.edit === 'parking-lot') actions.openParkingLot([station], { [station.connectorId]: reopen.lot ?? '' });
    else actions.openAvailability([station], reopen.status);
    onReopened?.();
  }, [reopen, station, actions, onReopened]);
  return (
    <>
      <ActionMenu
        items={[
          { id: 'parking-lot', label: t('stations.actions.parkingLot') },
          { id: 'availability', label: t('stations.actions.availability') },
          ...(mayConfigure
            ? [
                {
                  id: 'configuration',
                  label: t('ocpp.types.CHANGE_CONFIGURATION'),
                  isDisabled: operations.block !== null,
                  description: operations.block ? t(`ocpp.block.${operations.block}`) : undefined,
                },
              ]
            : []),
        ]}
        onAction={(id) => {
          if (id === 'parking-lot') actions.openParkingLot([station]);
          else if (id === 'availability') actions.openAvailability([station]);
          else if (id === 'configuration' && operations.block === null) operations.open('CHANGE_CONFIGURATION');
        }}
      />
      {actions.elements}
      {operations.elements}
    </>
  );
}
