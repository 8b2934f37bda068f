import type { HTMLAttributes, ReactNode } from 'react';
import { cx } from './class-names';

export interface CardProps extends Omit<HTMLAttributes<HTMLElement>, 'title'> {
  title?: ReactNode;
  /** Heading level of the title (default h2) so pages keep a sound outline. */
  headingLevel?: 2 | 3 | 4;
  actions?: ReactNode;
  children?: ReactNode;
}

/** Surface for grouped content (KPI tiles, detail blocks). A titled card is a labelled region. */
export function Card({ title, headingLevel = 2, actions, children, className, ...rest }: CardProps) {
  const H = `h${headingLevel}` as const;
  return (
    <section {...rest} className={cx('rounded-lg border border-border bg-surface p-4 text-fg shadow-sm', className)}>
      {(title || actions) && (
        <header className="mb-3 flex flex-wrap items-center justify-between gap-2">
          {title && <H className="text-base font-semibold">{title}</H>}
          {actions && <div className="flex items-center gap-2">{actions}</div>}
        </header>
      )}
      {children}
    </section>
  );
}

export interface ListPanelProps {
  heading: ReactNode;
  /** The heading's id: it names the section, and the table inside points at it too. */
  headingId: string;
  /** Beside the heading (the data's age). */
  note?: ReactNode;
  /** At the header's end (the list's buttons). */
  actions?: ReactNode;
  children?: ReactNode;
}

/** The card a list, a table or a history stands in: a section named by its heading, with the heading's note and actions. */
export function ListPanel({ heading, headingId, note, actions, children }: ListPanelProps) {
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4 rounded-lg border border-border bg-surface p-4 shadow-sm">
      <header className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex flex-wrap items-center gap-3">
          <h2 id={headingId} className="text-lg font-semibold text-fg">
            {heading}
          </h2>
          {note}
        </div>
        {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
      </header>
      {children}
    </section>
  );
}
