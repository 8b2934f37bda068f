import { useEffect, useState } from 'react';
import { useT } from '../../i18n/i18n-context';
import { useOutbox } from '../../offline/outbox-react';
import { failureText, writeLabel } from '../../offline/write-kinds';
import type { SettableConnectorStatus } from '../../../contract/stations';
import type { SubmitOutcome } from '../../offline/outbox';
import { AlertDialog } from '../../ui/alert-dialog';
import { lazyDialog, useDialogOpener } from '../../ui/lazy-dialog';
import { showNotice } from '../../ui/notices';
import { PARKING_LOT_WRITE } from './api/station-writes';
import { checkAvailabilitySelection, checkParkingLotSelection, type SelectedConnector } from './station-rules';

// The modals are not part of the first screen: they load once it shows (see the effect below).
const ParkingLotWizard = lazyDialog(() => import('./components/parking-lot-wizard').then((m) => m.ParkingLotWizard));
const AvailabilityWizard = lazyDialog(() => import('./components/availability-wizard').then((m) => m.AvailabilityWizard));

/**
 * Parking-lot assignment and status change for one or more connectors (spec 2 §2/§4): the gates
 * with their warnings, the two modals and the duplicate-lot dialog. Used by the list (bulk) and the
 * station detail (single).
 */
export function useStationActions(onQueued?: () => void) {
  const t = useT();
  const parkingLot = useDialogOpener();
  const availability = useDialogOpener();
  // The selection as the user saw it when opening a modal (its versions go into the writes).
  const [frozen, setFrozen] = useState<readonly SelectedConnector[]>([]);
  const [warning, setWarning] = useState<string | null>(null);
  // What the form starts with when the user comes back from a refused write ('Erneut bearbeiten');
  // a new opening mounts the form afresh (the opening is its key).
  const [initial, setInitial] = useState<{ lots?: Record<string, string>; status?: SettableConnectorStatus }>({});
  // Fetched once the screen is up, not when a modal opens: a field user who loses the network on a
  // station page can still make the change (the outbox keeps it), also before the service worker
  // has finished caching the app.
  useEffect(() => {
    ParkingLotWizard.preload();
    AvailabilityWizard.preload();
  }, []);

  const openParkingLot = (selected: readonly SelectedConnector[], lots?: Record<string, string>) => {
    const gate = checkParkingLotSelection(selected);
    if (!gate.ok) {
      setWarning(t(gate.warning === 'noSelection' ? 'stations.warnings.noSelection' : 'stations.warnings.inactive'));
      return;
    }
    setFrozen(selected);
    setInitial({ lots });
    parkingLot.open();
  };

  const openAvailability = (selected: readonly SelectedConnector[], status?: SettableConnectorStatus) => {
    const gate = checkAvailabilitySelection(selected);
    if (!gate.ok) {
      if (gate.warning === 'noSelection') setWarning(t('stations.warnings.noSelection'));
      else {
        const parts: string[] = [];
        if (gate.warning !== 'inOperation') parts.push(t('stations.warnings.notChangeable'));
        if (gate.warning !== 'notChangeable') parts.push(t('stations.warnings.inOperation', { cpIds: gate.cpIds.join(', ') }));
        setWarning(parts.join(' '));
      }
      return;
    }
    setFrozen(selected);
    setInitial({ status });
    availability.open();
  };

  // The user sees that the change was taken; a refusal is announced by the outbox with its reason.
  const queued = (outcome: SubmitOutcome) => {
    parkingLot.close();
    availability.close();
    onQueued?.();
    // 'blocked' (an earlier change of the connector was refused): the outbox button says so, with the way to fix it.
    if (outcome === 'saved' || outcome === 'queued') {
      showNotice({
        id: 'station-write',
        tone: outcome === 'saved' ? 'success' : 'info',
        message: t(outcome === 'saved' ? 'outbox.notice.saved' : 'outbox.notice.queued'),
        timeout: 6_000,
      });
    }
  };

  const elements = (
    <>
      <ParkingLotWizard
        key={`lot-${parkingLot.opening}`}
        opener={parkingLot}
        selected={frozen}
        initialValues={initial.lots}
        onQueued={queued}
      />
      <AvailabilityWizard
        key={`status-${availability.opening}`}
        opener={availability}
        selected={frozen}
        initialStatus={initial.status}
        onQueued={queued}
      />
      <AlertDialog isOpen={warning !== null} onClose={() => setWarning(null)} variant="warning" title={t('stations.warnings.title')}>
        {warning}
      </AlertDialog>
      <DuplicateParkingLotDialog />
    </>
  );

  return { openParkingLot, openAvailability, elements };
}

/** Spec 2 §8: a parking-lot write refused with DATA_INCONSISTENCY shows a dialog naming the lot (the server's reason in the user's words). */
function DuplicateParkingLotDialog() {
  const t = useT();
  const { writes } = useOutbox();
  const [seen, setSeen] = useState<ReadonlySet<string>>(new Set());
  const failed = writes.find(
    (w) => w.kind === PARKING_LOT_WRITE && w.state === 'failed' && w.lastError?.code === 'DATA_INCONSISTENCY' && !seen.has(w.id),
  );
  return (
    <AlertDialog
      isOpen={!!failed}
      onClose={() => failed && setSeen((s) => new Set(s).add(failed.id))}
      variant="error"
      title={t('stations.duplicateParkingLot.title')}
    >
      {failed ? t('stations.duplicateParkingLot.body', { message: failureText(failed, t), label: writeLabel(failed, t) }) : null}
    </AlertDialog>
  );
}
