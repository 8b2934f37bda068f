import type { ImportMistake, StationImportAnswer } from '../../../../contract/station-import';
import { ProgressBar } from 'react-aria-components/ProgressBar';
import { useT } from '../../../i18n/i18n-context';
import { mistakeMessage } from './import-messages';

const th = 'border-b border-border px-3 py-2 text-left font-semibold';
const td = 'border-b border-border px-3 py-2 align-top';

/** The dry run's mistakes: one line per mistake, with the row and column as the spreadsheet shows them. */
export function ImportMistakes({ mistakes, fileName }: { mistakes: ImportMistake[]; fileName: string }) {
  const t = useT();
  return (
    <>
      <p role="alert" className="rounded-md border border-danger bg-danger-soft p-3 text-sm text-danger">
        {t('stations.import.mistakesIntro', { count: mistakes.length, name: fileName })}
      </p>
      <div className="max-h-[50vh] overflow-auto rounded-md border border-border">
        <table className="w-full border-collapse text-sm" data-testid="import-mistakes">
          <caption className="sr-only">{t('stations.import.mistakesCaption')}</caption>
          <thead className="sticky top-0 bg-surface-2">
            <tr>
              <th scope="col" className={th}>
                {t('stations.import.row')}
              </th>
              <th scope="col" className={th}>
                {t('stations.import.column')}
              </th>
              <th scope="col" className={th}>
                {t('stations.import.message')}
              </th>
            </tr>
          </thead>
          <tbody>
            {mistakes.map((m, i) => (
              <tr key={i}>
                <td className={`${td} tabular-nums`}>{m.row}</td>
                <td className={`${td} font-mono`}>{m.column}</td>
                <td className={td}>{mistakeMessage(t, m)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** The dry run's preview: per location, the stations and their connectors that the import would create. */
export function ImportPreview({ answer, fileName }: { answer: StationImportAnswer; fileName: string }) {
  const t = useT();
  return (
    <>
      <p role="status" className="rounded-md border border-success bg-success-soft p-3 text-sm">
        {t('stations.import.previewIntro', { stations: answer.stationCount, connectors: answer.connectorCount, name: fileName })}
      </p>
      <div className="flex max-h-[50vh] flex-col gap-4 overflow-auto" data-testid="import-preview">
        {answer.locations.map((l) => (
          <section key={l.locationId ?? `operator-${l.cpoId}`} className="rounded-md border border-border">
            <h3 className="bg-surface-2 px-3 py-2 text-sm font-semibold">
              {l.locationId ? `${l.locationName} (${l.locationId})` : t('stations.import.noLocation', { operator: l.cpoId })}
            </h3>
            <table className="w-full border-collapse text-sm">
              <thead>
                <tr>
                  <th scope="col" className={th}>
                    {t('stations.import.station')}
                  </th>
                  <th scope="col" className={th}>
                    {t('stations.import.model')}
                  </th>
                  <th scope="col" className={th}>
                    {t('stations.import.connectors')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {l.stations.map((s) => (
                  <tr key={s.cpId}>
                    <td className={`${td} font-mono`}>{s.cpId}</td>
                    <td className={td}>{s.wallboxModel}</td>
                    <td className={td}>
                      {s.connectors
                        .map((c, k) => t('stations.import.connector', { number: k + 1, lot: c.parkingLot ?? t('stations.import.noLot') }))
                        .join(' · ')}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        ))}
      </div>
      <p className="text-sm text-muted">{t('stations.import.previewHint')}</p>
    </>
  );
}

/** The upload's progress by bytes sent; once the file is there, the server reads and checks it (no measure of that). */
export function ImportProgress({ sent, writing }: { sent: number; writing: boolean }) {
  const t = useT();
  const uploading = sent < 1;
  const label = uploading ? t('stations.import.uploading') : t(writing ? 'stations.import.importing' : 'stations.import.checking');
  return (
    <ProgressBar
      value={uploading ? Math.round(sent * 100) : undefined}
      isIndeterminate={!uploading}
      aria-label={label}
      className="flex flex-col gap-1"
      data-testid="import-progress"
    >
      {({ percentage }) => (
        <>
          <span className="flex justify-between text-sm">
            <span>{label}</span>
            {uploading && <span className="tabular-nums">{Math.round(percentage ?? 0)} %</span>}
          </span>
          <span className="h-2 overflow-hidden rounded-full bg-surface-2">
            <span
              className={uploading ? 'block h-full bg-primary transition-[width]' : 'block h-full w-1/3 animate-pulse bg-primary'}
              style={uploading ? { width: `${percentage ?? 0}%` } : undefined}
            />
          </span>
        </>
      )}
    </ProgressBar>
  );
}
