import { useMemo } from 'react';
import { erpExportPaymentMethods } from '../../../../contract/downloads';
import type { LocationDropdownRow } from '../../../../contract/locations';
import { useT } from '../../../i18n/i18n-context';
import { RadioGroup } from '../../../ui/radio-group';
import { Select } from '../../../ui/select';
import type { DownloadSearch } from '../api/download-search';
import { DownloadButtons, useDownloadRunner, DownloadProblemDialog } from './download-runner';
import { chosenLocations, LocationPicker, useRangeField } from './download-fields';
import { SepaSection } from './sepa-section';

export interface TabProps {
  search: DownloadSearch;
  onPatch: (patch: Partial<DownloadSearch>) => void;
  locations: readonly LocationDropdownRow[];
}

const toOptions = (rows: readonly LocationDropdownRow[]) => rows.map((r) => ({ id: r.locationId, label: r.locationIdName }));

/** Charging history (everyone): locations, range, format CSV, NORMAL or AD_HOC requests. */
export function HistoryTab({ search, onPatch, locations }: TabProps) {
  const t = useT();
  const runner = useDownloadRunner();
  const options = useMemo(() => toOptions(locations), [locations]);
  const range = useRangeField(search.hFrom, search.hTo, (hFrom, hTo) => onPatch({ hFrom, hTo }));
  const chosen = chosenLocations(search.hLoc, options);
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-start gap-4">
        <LocationPicker options={options} value={search.hLoc} onChange={(hLoc) => onPatch({ hLoc })} allAsWord />
        {range.field}
      </div>
      <div className="flex flex-wrap gap-8">
        <RadioGroup label={t('downloads.format')} value="CSV" items={[{ id: 'CSV', label: 'CSV' }]} orientation="horizontal" />
        <RadioGroup
          label={t('downloads.chargingType')}
          value={search.hType}
          onChange={(v) => onPatch({ hType: v === 'AD_HOC' ? 'AD_HOC' : 'NORMAL' })}
          items={[
            { id: 'NORMAL', label: t('downloads.chargingTypes.NORMAL') },
            { id: 'AD_HOC', label: t('downloads.chargingTypes.AD_HOC') },
          ]}
          orientation="horizontal"
        />
      </div>
      <DownloadButtons
        runner={runner}
        canDownload={chosen.length > 0 && range.valid}
        buttons={[
          {
            kind: 'history',
            label: t('downloads.downloadCsv'),
            onPress: () => runner.start('history', { locations: chosen, ...range, chargingType: search.hType }),
          },
        ]}
      />
      <DownloadProblemDialog runner={runner} />
    </div>
  );
}

/** Invoices, the billing CSV (partners, operators, admins): locations and range. */
export function InvoicesTab({ search, onPatch, locations }: TabProps) {
  const t = useT();
  const runner = useDownloadRunner();
  const options = useMemo(() => toOptions(locations), [locations]);
  const range = useRangeField(search.iFrom, search.iTo, (iFrom, iTo) => onPatch({ iFrom, iTo }));
  const chosen = chosenLocations(search.iLoc, options);
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-start gap-4">
        <LocationPicker options={options} value={search.iLoc} onChange={(iLoc) => onPatch({ iLoc })} allAsWord />
        {range.field}
      </div>
      <DownloadButtons
        runner={runner}
        canDownload={chosen.length > 0 && range.valid}
        buttons={[
          { kind: 'invoices', label: t('downloads.downloadCsv'), onPress: () => runner.start('invoices', { locations: chosen, ...range }) },
        ]}
      />
      <DownloadProblemDialog runner={runner} />
    </div>
  );
}

/** ERP import (partners, admins): one operator, its locations, payment method, posting range; XML or DATEV; and the SEPA file. */
export function ErpTab({ search, onPatch, locations }: TabProps) {
  const t = useT();
  const runner = useDownloadRunner();
  const operators = useMemo(() => {
    const byId = new Map(locations.map((r) => [r.cpoId, `${r.cpoId}: ${r.cpoName}`]));
    return [...byId].map(([id, label]) => ({ id, label })).sort((a, b) => a.label.localeCompare(b.label));
  }, [locations]);
  const cpoId = operators.some((o) => o.id === search.cpo) ? search.cpo : '';
  const options = useMemo(() => toOptions(locations.filter((r) => r.cpoId === cpoId)), [locations, cpoId]);
  const range = useRangeField(search.eFrom, search.eTo, (eFrom, eTo) => onPatch({ eFrom, eTo }), 'downloads.posting');
  const chosen = chosenLocations(search.eLoc, options);
  const query = { locations: chosen, ...range, cpoId, paymentMethod: search.pay };
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-start gap-4">
        <Select
          label={t('downloads.operator')}
          items={operators}
          value={cpoId || null}
          onChange={(v) => onPatch({ cpo: v === null ? '' : String(v), eLoc: [] })}
          placeholder={t('downloads.chooseOperator')}
          isRequired
          className="w-full sm:w-[320px]"
        />
        <LocationPicker
          options={options}
          value={search.eLoc}
          onChange={(eLoc) => onPatch({ eLoc })}
          allAsWord={false}
          isDisabled={!cpoId}
        />
      </div>
      <div className="flex flex-wrap items-start gap-4">
        <RadioGroup
          label={t('downloads.paymentMethod')}
          value={search.pay}
          onChange={(v) => onPatch({ pay: erpExportPaymentMethods.find((m) => m === v) ?? 'SEPA' })}
          // Stripe's bills too (issue 35): posted on the operator's clearing account.
          items={erpExportPaymentMethods.map((m) => ({ id: m, label: t(`downloads.paymentMethods.${m}`) }))}
          orientation="horizontal"
        />
        {range.field}
      </div>
      <DownloadButtons
        runner={runner}
        canDownload={!!cpoId && chosen.length > 0 && range.valid}
        buttons={[
          { kind: 'erpXml', label: t('downloads.downloadErp'), onPress: () => runner.start('erpXml', query) },
          { kind: 'datev', label: t('downloads.downloadDatev'), onPress: () => runner.start('datev', query) },
        ]}
      />
      <DownloadProblemDialog runner={runner} />
      <SepaSection search={search} onPatch={onPatch} operators={operators} />
    </div>
  );
}
