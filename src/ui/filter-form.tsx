import type { FormEvent, ReactNode } from 'react';
import { useT } from '../i18n/i18n-context';
import { Button } from './button';
import { TextField } from './text-field';

export interface FilterFormProps {
  /** Names the search landmark, e.g. 'Ladestationen filtern'. */
  'aria-label': string;
  onSubmit: (event: FormEvent) => void;
  onReset: () => void;
  /** The filter fields. */
  children: ReactNode;
}

/** A list's filter row: the fields, then Search (also Enter) and Reset. */
export function FilterForm({ onSubmit, onReset, children, ...aria }: FilterFormProps) {
  const t = useT();
  return (
    <form role="search" {...aria} noValidate onSubmit={onSubmit} className="flex flex-wrap items-end gap-3">
      {children}
      <div className="flex gap-2">
        <Button type="submit">{t('ui.filters.search')}</Button>
        <Button variant="secondary" onPress={onReset}>
          {t('ui.filters.reset')}
        </Button>
      </div>
    </form>
  );
}

/** A free-text filter: a search field without the browser's autocomplete. */
export function FilterTextField({
  label,
  value,
  onChange,
  className,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  className?: string;
}) {
  return <TextField label={label} type="search" autoComplete="off" value={value} onChange={onChange} className={className} />;
}
