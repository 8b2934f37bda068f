import { Cell, Column, Row, Table, TableBody, TableHeader, type Key, type Selection } from 'react-aria-components/Table';
import type { ReactNode } from 'react';
import { useT } from '../i18n/i18n-context';
import { Button } from './button';
import { Checkbox } from './checkbox';
import { cx } from './class-names';
import { ChevronLeftIcon, ChevronRightIcon, ChevronsLeftIcon, ChevronsRightIcon } from './icons';
import { Select } from './select';
import { Spinner } from './spinner';
import { PAGE_SIZE_OPTIONS } from './paging';

/** Pagination appears only when the total exceeds this. */
export const PAGINATION_THRESHOLD = 10;

export interface DataTableColumn<T> {
  id: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** The column that names the row for screen readers (default: the first column). */
  isRowHeader?: boolean;
  align?: 'start' | 'end';
  /** Keep the cell on one line (ids, dates, amounts). */
  noWrap?: boolean;
  /** Header text for assistive tech only, e.g. for a column of 'Details' links. */
  hideHeader?: boolean;
}

export interface DataTableProps<T> {
  /** The table's accessible name (or use aria-labelledby). */
  'aria-label'?: string;
  'aria-labelledby'?: string;
  columns: readonly DataTableColumn<T>[];
  rows: readonly T[];
  getRowId: (row: T) => Key;
  /** Server-side total across all pages. */
  totalNumberOfRecords: number;
  /** Zero-based, as on the wire. */
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  /** Changing the page size should also reset the page to 0 (the caller owns both). */
  onPageSizeChange?: (pageSize: number) => void;
  isLoading?: boolean;
  /** Overrides 'Keine Informationen gefunden' (e.g. 'Keine Standorte'). */
  emptyText?: ReactNode;
  onRowAction?: (id: Key, row: T) => void;
  /** Makes rows links (navigates through react-aria's RouterProvider). */
  getRowHref?: (row: T) => string | undefined;
  selectionMode?: 'none' | 'multiple';
  /** Controlled selection (keys of the rows on the current page). */
  selectedKeys?: ReadonlySet<Key>;
  onSelectionChange?: (keys: Set<Key>) => void;
  /** Below this width (px) the table scrolls horizontally instead of squeezing columns. */
  minWidth?: number;
  className?: string;
}

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / Math.max(1, pageSize)));
}

/**
 * Server-paged table: the server owns paging, this renders one page, the pager and the selection
 * count. react-aria's grid gives arrow-key navigation, row headers and announced selection.
 */
export function DataTable<T>({
  columns,
  rows,
  getRowId,
  totalNumberOfRecords,
  page,
  pageSize,
  onPageChange,
  onPageSizeChange,
  isLoading = false,
  emptyText,
  onRowAction,
  getRowHref,
  selectionMode = 'none',
  selectedKeys,
  onSelectionChange,
  minWidth = 640,
  className,
  ...aria
}: DataTableProps<T>) {
  const t = useT();
  const selectable = selectionMode === 'multiple';
  const hasRowHeader = columns.some((c) => c.isRowHeader);
  const selectedCount = selectedKeys?.size ?? 0;

  const handleSelection = (keys: Selection) => {
    // 'all' from the header checkbox means every row on this page: the server owns the rest.
    onSelectionChange?.(keys === 'all' ? new Set(rows.map(getRowId)) : new Set(keys));
  };

  const byId = new Map(rows.map((r) => [getRowId(r), r] as const));

  return (
    <div className={cx('flex flex-col gap-2', className)}>
      {selectable && (
        <p aria-live="polite" data-testid="selection-count" className="text-sm text-muted">
          {t('ui.table.rowsSelected', { count: selectedCount })}
        </p>
      )}
      <div aria-busy={isLoading} className="relative overflow-x-auto rounded-lg border border-border bg-surface">
        <Table
          {...aria}
          style={{ minWidth }}
          selectionMode={selectable ? 'multiple' : 'none'}
          selectionBehavior="toggle"
          selectedKeys={selectable ? (selectedKeys as Set<Key> | undefined) : undefined}
          onSelectionChange={selectable ? handleSelection : undefined}
          onRowAction={onRowAction ? (key) => onRowAction(key, byId.get(key) as T) : undefined}
          className="w-full border-collapse text-start text-base text-fg"
        >
          <TableHeader className="bg-surface-2">
            {selectable && (
              <Column className="w-12 px-3 text-start">
                <Checkbox slot="selection" />
              </Column>
            )}
            {columns.map((col, i) => (
              <Column
                key={col.id}
                id={col.id}
                isRowHeader={col.isRowHeader ?? (!hasRowHeader && i === 0)}
                className={cx(
                  'whitespace-nowrap border-b border-border px-3 py-3 text-sm font-semibold text-fg outline-none',
                  col.align === 'end' ? 'text-end' : 'text-start',
                  'data-[focus-visible]:outline-2 data-[focus-visible]:-outline-offset-2 data-[focus-visible]:outline-focus',
                )}
              >
                {col.hideHeader ? <span className="sr-only">{col.header}</span> : col.header}
              </Column>
            ))}
          </TableHeader>
          <TableBody
            items={rows}
            dependencies={[columns, selectable, getRowHref, getRowId]}
            renderEmptyState={() => (
              <div className="flex min-h-24 items-center justify-center px-3 py-6 text-muted">
                {isLoading ? <Spinner showLabel /> : (emptyText ?? t('ui.table.noInfo'))}
              </div>
            )}
          >
            {(row) => (
              <Row
                id={getRowId(row)}
                href={getRowHref?.(row)}
                className={cx(
                  'border-b border-border outline-none last:border-b-0 data-[selected]:bg-primary-soft',
                  (onRowAction || getRowHref) && 'cursor-pointer data-[hovered]:bg-surface-2',
                  'data-[focus-visible]:outline-2 data-[focus-visible]:-outline-offset-2 data-[focus-visible]:outline-focus',
                )}
              >
                {selectable && (
                  <Cell className="px-3 py-2">
                    <Checkbox slot="selection" />
                  </Cell>
                )}
                {columns.map((col) => (
                  <Cell
                    key={col.id}
                    className={cx(
                      'px-3 py-3 align-middle outline-none',
                      col.align === 'end' && 'text-end',
                      col.noWrap && 'whitespace-nowrap',
                      'data-[focus-visible]:outline-2 data-[focus-visible]:-outline-offset-2 data-[focus-visible]:outline-focus',
                    )}
                  >
                    {col.cell(row)}
                  </Cell>
                ))}
              </Row>
            )}
          </TableBody>
        </Table>
        {isLoading && rows.length > 0 && (
          <div className="absolute inset-0 flex items-center justify-center bg-surface/60">
            <Spinner />
          </div>
        )}
      </div>
      {totalNumberOfRecords > PAGINATION_THRESHOLD && (
        <Pagination
          total={totalNumberOfRecords}
          page={page}
          pageSize={pageSize}
          onPageChange={onPageChange}
          onPageSizeChange={onPageSizeChange}
          isDisabled={isLoading}
        />
      )}
    </div>
  );
}

interface PaginationProps {
  total: number;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  onPageSizeChange?: (pageSize: number) => void;
  isDisabled?: boolean;
}

export function Pagination({ total, page, pageSize, onPageChange, onPageSizeChange, isDisabled }: PaginationProps) {
  const t = useT();
  const pages = pageCount(total, pageSize);
  const current = Math.min(Math.max(0, page), pages - 1);
  const from = total === 0 ? 0 : current * pageSize + 1;
  const to = Math.min(total, (current + 1) * pageSize);
  const go = (p: number) => {
    if (p !== current && p >= 0 && p < pages) onPageChange(p);
  };
  const sizeOptions = PAGE_SIZE_OPTIONS.map((n) => ({ id: n, label: String(n) }));

  return (
    <nav aria-label={t('ui.table.pagination')} className="flex flex-wrap items-end justify-between gap-3">
      {onPageSizeChange ? (
        <Select
          compact
          label={t('ui.table.rowsPerPage')}
          items={sizeOptions}
          value={pageSize}
          isDisabled={isDisabled}
          onChange={(v) => v !== null && onPageSizeChange(Number(v))}
        />
      ) : (
        <span />
      )}
      <div className="flex flex-wrap items-center gap-1">
        <span className="me-2 text-sm text-muted">{t('ui.table.range', { from, to, total })}</span>
        <Button
          variant="ghost"
          iconOnly
          aria-label={t('ui.table.firstPage')}
          isDisabled={isDisabled || current === 0}
          onPress={() => go(0)}
        >
          <ChevronsLeftIcon />
        </Button>
        <Button
          variant="ghost"
          iconOnly
          aria-label={t('ui.table.previousPage')}
          isDisabled={isDisabled || current === 0}
          onPress={() => go(current - 1)}
        >
          <ChevronLeftIcon />
        </Button>
        <span aria-live="polite" className="px-2 text-sm font-medium text-fg whitespace-nowrap">
          {t('ui.table.pageOf', { page: current + 1, pages })}
        </span>
        <Button
          variant="ghost"
          iconOnly
          aria-label={t('ui.table.nextPage')}
          isDisabled={isDisabled || current >= pages - 1}
          onPress={() => go(current + 1)}
        >
          <ChevronRightIcon />
        </Button>
        <Button
          variant="ghost"
          iconOnly
          aria-label={t('ui.table.lastPage')}
          isDisabled={isDisabled || current >= pages - 1}
          onPress={() => go(pages - 1)}
        >
          <ChevronsRightIcon />
        </Button>
      </div>
    </nav>
  );
}
