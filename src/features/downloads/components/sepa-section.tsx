import { useState } from 'react';
import { useT } from '../../../i18n/i18n-context';
import { DateField } from '../../../ui/date-range-field';
import { todayLocal, toWire } from '../../../ui/date-range';
import { Select } from '../../../ui/select';
import type { DownloadSearch } from '../api/download-search';
import { DownloadButtons, DownloadProblemDialog, useDownloadRunner } from './download-runner';

/**
 * The SEPA direct-debit file for the operator's bank (ERP tab, partners and admins; issue 26):
 * one operator, one collection date. The file holds the operator's generated and sent SEPA bills
 * due that day (pain.008.001.08); what the server misses (a creditor id, a mandate, an IBAN) comes
 * back as the missing-info dialog naming the contracts.
 */
export function SepaSection({
  search,
  onPatch,
  operators,
}: {
  search: DownloadSearch;
  onPatch: (patch: Partial<DownloadSearch>) => void;
  operators: ReadonlyArray<{ id: string; label: string }>;
}) {
  const t = useT();
  const runner = useDownloadRunner();
  const cpoId = operators.some((o) => o.id === search.sCpo) ? search.sCpo : '';
  // The field's own value ('' while empty or half typed); only whole dates go to the URL.
  const [collectionDate, setCollectionDate] = useState(() => search.sDay || toWire(todayLocal()));
  return (
    <section aria-labelledby="sepa-heading" className="flex flex-col gap-4 border-t border-border pt-5">
      <div>
        <h3 id="sepa-heading" className="text-base font-semibold">
          {t('downloads.sepa.title')}
        </h3>
        <p className="text-sm text-muted">{t('downloads.sepa.intro')}</p>
      </div>
      <div className="flex flex-wrap items-start gap-4">
        <Select
          label={t('downloads.sepa.creditor')}
          items={operators}
          value={cpoId || null}
          onChange={(v) => onPatch({ sCpo: v === null ? '' : String(v) })}
          placeholder={t('downloads.chooseOperator')}
          isRequired
          className="w-full sm:w-[320px]"
        />
        <DateField
          label={t('downloads.sepa.collectionDate')}
          value={collectionDate}
          onChange={(day) => {
            setCollectionDate(day);
            if (day) onPatch({ sDay: day });
          }}
        />
      </div>
      <DownloadButtons
        runner={runner}
        canDownload={!!cpoId && collectionDate !== ''}
        buttons={[
          {
            kind: 'sepa',
            label: t('downloads.sepa.download'),
            onPress: () => runner.start('sepa', { locations: [], startDate: '', endDate: '', cpoId, collectionDate }),
          },
        ]}
      />
      <DownloadProblemDialog runner={runner} noData="downloads.sepa.noData" />
    </section>
  );
}
