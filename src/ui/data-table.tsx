import { Cell, Column, Row, Table, TableBody, TableHeader, type Key, type Selection } from 'react-aria-components/Table';
import { useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
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
  /**
   * Where a secondary column folds on a narrow table (its container, not the window): under the
   * row's name cell as 'label: value' instead of a column of its own, so status and links stay in
   * view from a portrait tablet up without sideways scrolling. `lg` folds below 1024 px of table,
   * `xl` below 1280 px; columns without it always show.
   */
  fold?: 'lg' | 'xl';
  /** Plain-text name of the column where it folds (default: the header). */
  label?: string;
}

/** Below these widths of the table's box (px) its `lg` / `xl` columns fold. */
export const FOLD_BELOW = { lg: 1024, xl: 1280 } as const;

/**
 * The width of an element, kept up to date: `measured` once the first layout effect has run (the
 * width stays null in tests without layout).
 */
function useWidth(ref: RefObject<HTMLElement | null>): { measured: boolean; width: number | null } {
  const [state, setState] = useState<{ measured: boolean; width: number | null }>({ measured: false, width: null });
  useLayoutEffect(() => {
    const el = ref.current;
    const update = () => {
      const width = el?.clientWidth || null;
      setState((s) => (s.measured && s.width === width ? s : { measured: true, width }));
    };
    update();
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(update);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return state;
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
  // Folded columns are not rendered as columns at all (no hidden cells for assistive tech or tests):
  // their values show once, under the row's name.
  const box = useRef<HTMLDivElement>(null);
  const { measured, width } = useWidth(box);
  const folded = width === null ? [] : columns.filter((c) => c.fold && width < FOLD_BELOW[c.fold]);
  const shown = folded.length === 0 ? columns : columns.filter((c) => !folded.includes(c));
  const rowHeaderId = (shown.find((c) => c.isRowHeader) ?? (hasRowHeader ? undefined : shown[0]))?.id;

  return (
    <div className={cx('flex flex-col gap-2', className)}>
      {selectable && (
        <p aria-live="polite" data-testid="selection-count" className="text-sm text-muted">
          {t('ui.table.rowsSelected', { count: selectedCount })}
        </p>
      )}
      <div ref={box} aria-busy={isLoading} className="relative overflow-x-auto rounded-lg border border-border bg-surface">
        {/* The table waits for its box's width (a layout effect, before the first paint): which
            columns fold depends on it, and react-aria's table built with every column and then
            again without the folded ones cost a warm start of a list page ~a third of its time. */}
        {measured && (
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
              {shown.map((col, i) => (
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
              dependencies={[shown, selectable, getRowHref, getRowId]}
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
                  {shown.map((col) => (
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
                      {col.id === rowHeaderId && folded.length > 0 && <Folded columns={folded} row={row} />}
                    </Cell>
                  ))}
                </Row>
              )}
            </TableBody>
          </Table>
        )}
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

/** The folded columns of a row, under its name, as 'label: value'. */
function Folded<T>({ columns, row }: { columns: readonly DataTableColumn<T>[]; row: T }) {
  return (
    <span className="mt-1 flex flex-col gap-0.5 text-sm font-normal text-muted">
      {columns.map((col) => {
        const value = col.cell(row);
        if (value === null || value === undefined || value === '') return null;
        return (
          <span key={col.id} className="flex flex-wrap items-baseline gap-x-1 whitespace-normal">
            <span>{col.label ?? col.header}:</span>
            <span className="text-fg">{value}</span>
          </span>
        );
      })}
    </span>
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
