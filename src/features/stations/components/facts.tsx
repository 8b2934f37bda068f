import type { ReactNode } from 'react';

/** Label and value pairs of a station card, as one description list. */
export function Facts({ entries }: { entries: Array<[string, ReactNode]> }) {
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-2">
      {entries.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-muted">{label}</dt>
          <dd className="min-w-0 break-words text-fg">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A table's column headers. */
export function HeaderCells({ labels, className }: { labels: readonly string[]; className: string }) {
  return (
    <tr>
      {labels.map((label) => (
        <th key={label} scope="col" className={className}>
          {label}
        </th>
      ))}
    </tr>
  );
}
