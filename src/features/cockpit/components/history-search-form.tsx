import { useState, type FormEvent } from 'react';
import { useT } from '../../../i18n/i18n-context';
import { Button } from '../../../ui/button';
import { DateRangeField, type DateRangeFieldValue } from '../../../ui/date-range-field';
import { defaultRange, toWire, todayLocal } from '../../../ui/date-range';
import { Select } from '../../../ui/select';
import { TextField } from '../../../ui/text-field';
import { maxLength, validate, validationMessage } from '../../../ui/validation';
import { END_CUSTOMER_ID_MAX_LENGTH, TRANSACTION_ID_MAX_LENGTH, formatEndCustomerId } from '../end-customer-id';

export type SearchType = 'transactionId' | 'endCustomerId';

/** What a submitted search asks for; '' values are dropped from the request. */
export interface HistorySearch {
  transactionId: string;
  endCustomerId: string;
  startDate: string;
  endDate: string;
}

/** The default search: no id, the last 7 days up to today (spec 1 §5). */
export function defaultHistorySearch(): HistorySearch {
  const { start, end } = defaultRange(todayLocal());
  return {
    transactionId: '',
    endCustomerId: '',
    startDate: toWire(start),
    endDate: toWire(end),
  };
}

export function HistorySearchForm({ onSearch }: { onSearch: (search: HistorySearch) => void }) {
  const t = useT();
  const [initial, setInitial] = useState(defaultHistorySearch);
  const [formKey, setFormKey] = useState(0);
  const [searchType, setSearchType] = useState<SearchType>('transactionId');
  const [value, setValue] = useState('');
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

  const reset = () => {
    const fresh = defaultHistorySearch();
    setInitial(fresh);
    setSearchType('transactionId');
    setValue('');
    setRange({ start: fresh.startDate, end: fresh.endDate, isValid: true });
    // The date fields keep their own state; a new key starts them again from the default range.
    setFormKey((k) => k + 1);
    onSearch(fresh);
  };

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
          key={formKey}
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
