import { useT } from '../../i18n/i18n-context';
import { ActionMenu } from '../../ui/menu';
import type { SelectedConnector } from './station-rules';
import { useStationActions } from './use-station-actions';

/** The station detail's Actions menu (spec 2 §2): assign a parking lot, change the status. */
export function StationActions({ station }: { station: SelectedConnector }) {
  const t = useT();
  const actions = useStationActions();
  return (
    <>
      <ActionMenu
        items={[
          { id: 'parking-lot', label: t('stations.actions.parkingLot') },
          { id: 'availability', label: t('stations.actions.availability') },
        ]}
        onAction={(id) => (id === 'parking-lot' ? actions.openParkingLot([station]) : actions.openAvailability([station]))}
      />
      {actions.elements}
    </>
  );
}
