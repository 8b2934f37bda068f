import { useState, type FormEvent } from 'react';
import { useT } from '../../../i18n/i18n-context';
import { Button } from '../../../ui/button';
import { DateRangeField, type DateRangeFieldValue } from '../../../ui/date-range-field';
import { Select } from '../../../ui/select';
import { TextField } from '../../../ui/text-field';
import { maxLength, validate, validationMessage } from '../../../ui/validation';
import { defaultHistorySearch, type HistorySearch } from '../history-search';
import { END_CUSTOMER_ID_MAX_LENGTH, TRANSACTION_ID_MAX_LENGTH, formatEndCustomerId } from '../end-customer-id';

export type SearchType = 'transactionId' | 'endCustomerId';

/**
 * The search form, showing what is applied (`initial`, dates resolved). The page remounts it when
 * the applied search changes from outside (back button, a link), so it shows that search again.
 */
export function HistorySearchForm({ initial, onSearch }: { initial: HistorySearch; onSearch: (search: HistorySearch) => void }) {
  const t = useT();
  const [searchType, setSearchType] = useState<SearchType>(initial.endCustomerId ? 'endCustomerId' : 'transactionId');
  const [value, setValue] = useState(initial.endCustomerId || initial.transactionId);
  const [range, setRange] = useState<DateRangeFieldValue>({
    start: initial.startDate,
    end: initial.endDate,
    isValid: true,
  });

  const limit = searchType === 'transactionId' ? TRANSACTION_ID_MAX_LENGTH : END_CUSTOMER_ID_MAX_LENGTH;
  const valueError = validate(value.trim(), maxLength(limit));
  const canSubmit = range.isValid && !valueError;

  const changeValue = (next: string) => setValue(searchType === 'endCustomerId' ? formatEndCustomerId(next) : next);
  const changeType = (next: SearchType) => {
    setSearchType(next);
    // An id of the other kind makes no sense in the new field; digits survive as a start.
    setValue((v) => (next === 'endCustomerId' ? formatEndCustomerId(v) : v));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!canSubmit) return;
    const id = value.trim();
    onSearch({
      transactionId: searchType === 'transactionId' ? id : '',
      endCustomerId: searchType === 'endCustomerId' ? id : '',
      startDate: range.start,
      endDate: range.end,
    });
  };

  // The page remounts the form with the default search, which also starts the date fields again.
  const reset = () => onSearch(defaultHistorySearch());

  return (
    <form role="search" aria-label={t('cockpit.history.searchLabel')} noValidate onSubmit={submit} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-start gap-3">
        <Select
          label={t('cockpit.history.searchBy')}
          items={[
            {
              id: 'transactionId',
              label: t('cockpit.history.searchTypes.transactionId'),
            },
            {
              id: 'endCustomerId',
              label: t('cockpit.history.searchTypes.endCustomerId'),
            },
          ]}
          value={searchType}
          onChange={(v) => v !== null && changeType(v as SearchType)}
          className="w-full sm:w-[200px]"
        />
        <TextField
          label={t(`cockpit.history.searchTypes.${searchType}`)}
          value={value}
          onChange={changeValue}
          maxLength={limit}
          type={searchType === 'endCustomerId' ? 'number' : 'search'}
          autoComplete="off"
          description={searchType === 'endCustomerId' ? t('cockpit.history.endCustomerIdHint') : t('cockpit.history.transactionIdHint')}
          errorMessage={validationMessage(t, valueError)}
          className="w-full sm:w-[260px]"
        />
        <DateRangeField
          defaultValue={{ start: initial.startDate, end: initial.endDate }}
          onChange={setRange}
          className="min-w-[300px] flex-1 gap-3 md:flex-nowrap"
        />
      </div>
      <div className="flex flex-wrap gap-2">
        {/* No pending state here: the table shows its own progress while the search runs. */}
        <Button type="submit" isDisabled={!canSubmit}>
          {t('cockpit.history.search')}
        </Button>
        <Button variant="secondary" onPress={reset}>
          {t('cockpit.history.reset')}
        </Button>
      </div>
    </form>
  );
}
