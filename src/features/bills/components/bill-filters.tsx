import { useQuery } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent } from 'react';
import { dropdownValues, type DropdownMappingType } from '../../../../contract/dropdown';
import { useT } from '../../../i18n/i18n-context';
import { Button } from '../../../ui/button';
import { DateRangeField } from '../../../ui/date-range-field';
import { MultiSelect } from '../../../ui/multi-select';
import type { BillListParams } from '../api/bill-keys';
import { defaultBillRange } from '../api/bill-params';
import { billDropdownQueryOptions } from '../api/bill-queries';
import type { BillFilters } from '../api/bill-search';

type ListFilters = {
  draft: BillFilters;
  setField: <K extends keyof BillFilters>(key: K, value: BillFilters[K]) => void;
  submit: (event: FormEvent) => void;
  reset: () => void;
};

const messagePrefix: Record<DropdownMappingType, string> = {
  USER_TYPE: 'users.userTypes',
  PAYMENT_METHOD: 'users.paymentMethods',
  BILLING_STATUS: 'users.billStatuses',
};

/** A filter's options from the dropdown configuration (spec 3 §2); the contract's values until it has answered. */
function useOptions(type: DropdownMappingType) {
  const t = useT();
  const dropdown = useQuery(billDropdownQueryOptions());
  return useMemo(() => {
    const values = dropdown.data?.find((d) => d.type === type)?.listValues ?? dropdownValues[type];
    return values.map((v) => ({ id: v, label: t(`${messagePrefix[type]}.${v}`) }));
  }, [dropdown.data, type, t]);
}

/**
 * The bills' filters: the range of generation dates (spec 3 §5 rules; the search button is disabled
 * while it is wrong), user types, payment methods and statuses. `applied` is the request as resolved
 * (the default range shown as dates); the range a user leaves at its default stays out of the URL.
 */
export function BillFilterForm({ list, applied }: { list: ListFilters; applied: BillListParams }) {
  const t = useT();
  const [rangeValid, setRangeValid] = useState(true);
  const userTypes = useOptions('USER_TYPE');
  const paymentMethods = useOptions('PAYMENT_METHOD');
  const statuses = useOptions('BILLING_STATUS');
  const sorted = (keys: readonly unknown[]) => keys.map(String).sort();

  return (
    <form role="search" aria-label={t('bills.searchLabel')} noValidate onSubmit={list.submit} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-start gap-3">
        <DateRangeField
          // Shown afresh when the applied range changes from outside (back button, a link, reset).
          key={`${applied.startDate}|${applied.endDate}`}
          defaultValue={{ start: applied.startDate, end: applied.endDate }}
          startLabel={t('bills.filters.startDate')}
          endLabel={t('bills.filters.endDate')}
          onChange={(range) => {
            const fallback = defaultBillRange();
            const isDefault = range.start === fallback.startDate && range.end === fallback.endDate;
            list.setField('startDate', isDefault ? '' : range.start);
            list.setField('endDate', isDefault ? '' : range.end);
            setRangeValid(range.isValid);
          }}
          className="min-w-[300px] gap-3 md:flex-nowrap"
        />
        <MultiSelect
          label={t('bills.filters.userTypes')}
          items={userTypes}
          value={list.draft.userTypes}
          onChange={(v) => list.setField('userTypes', sorted(v))}
          className="w-full sm:w-[200px]"
        />
        <MultiSelect
          label={t('bills.filters.paymentMethods')}
          items={paymentMethods}
          value={list.draft.paymentMethods}
          onChange={(v) => list.setField('paymentMethods', sorted(v))}
          className="w-full sm:w-[200px]"
        />
        <MultiSelect
          label={t('bills.filters.billingStatuses')}
          items={statuses}
          value={list.draft.billingStatuses}
          onChange={(v) => list.setField('billingStatuses', sorted(v))}
          className="w-full sm:w-[200px]"
        />
      </div>
      <div className="flex gap-2">
        <Button type="submit" isDisabled={!rangeValid}>
          {t('ui.filters.search')}
        </Button>
        <Button variant="secondary" onPress={list.reset}>
          {t('ui.filters.reset')}
        </Button>
      </div>
    </form>
  );
}
