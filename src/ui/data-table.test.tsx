import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithI18n } from '../i18n/test-utils';
import { DataTable, pageCount, type DataTableColumn } from './data-table';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS } from './paging';

afterEach(cleanup);

interface Loc {
  id: string;
  name: string;
}
const makeRows = (n: number, offset = 0): Loc[] =>
  Array.from({ length: n }, (_, i) => ({ id: `L${offset + i + 1}`, name: `Standort ${offset + i + 1}` }));
const columns: DataTableColumn<Loc>[] = [
  { id: 'id', header: 'ID', cell: (r) => r.id },
  { id: 'name', header: 'Name', cell: (r) => r.name },
];

function renderTable(props: Partial<Parameters<typeof DataTable<Loc>>[0]> = {}) {
  return renderWithI18n(
    <DataTable<Loc>
      aria-label="Standorte"
      columns={columns}
      rows={makeRows(10)}
      getRowId={(r) => r.id}
      totalNumberOfRecords={10}
      page={0}
      pageSize={10}
      onPageChange={() => {}}
      {...props}
    />,
  );
}

describe('constants', () => {
  it('page sizes 10, 20, 25 with 10 as default', () => {
    expect(PAGE_SIZE_OPTIONS).toEqual([10, 20, 25]);
    expect(DEFAULT_PAGE_SIZE).toBe(10);
    expect(pageCount(0, 10)).toBe(1);
    expect(pageCount(11, 10)).toBe(2);
    expect(pageCount(25, 25)).toBe(1);
  });
});

describe('DataTable', () => {
  it('renders a grid with headers and rows', async () => {
    await renderTable();
    const grid = screen.getByRole('grid', { name: 'Standorte' });
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['ID', 'Name']);
    // one header row + 10 body rows
    expect(within(grid).getAllByRole('row')).toHaveLength(11);
    expect(within(grid).getByText('Standort 3')).toBeTruthy();
  });

  it('hides pagination when the total is 10', async () => {
    await renderTable({ totalNumberOfRecords: 10 });
    expect(screen.queryByRole('navigation')).toBeNull();
    expect(screen.queryByText(/Seite \d+ von/)).toBeNull();
  });

  it('shows pagination when the total is 11', async () => {
    await renderTable({ totalNumberOfRecords: 11 });
    const nav = screen.getByRole('navigation', { name: 'Seitennavigation' });
    expect(within(nav).getByText('Seite 1 von 2')).toBeTruthy();
    expect(within(nav).getByText('1–10 von 11')).toBeTruthy();
  });

  it('calls onPageChange with zero-based pages and disables buttons at the ends', async () => {
    const onPageChange = vi.fn();
    await renderTable({ totalNumberOfRecords: 35, page: 1, onPageChange });
    expect(screen.getByText('Seite 2 von 4')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Nächste Seite' }));
    expect(onPageChange).toHaveBeenLastCalledWith(2);
    fireEvent.click(screen.getByRole('button', { name: 'Vorherige Seite' }));
    expect(onPageChange).toHaveBeenLastCalledWith(0);
    fireEvent.click(screen.getByRole('button', { name: 'Letzte Seite' }));
    expect(onPageChange).toHaveBeenLastCalledWith(3);
    fireEvent.click(screen.getByRole('button', { name: 'Erste Seite' }));
    expect(onPageChange).toHaveBeenLastCalledWith(0);
  });

  it('disables Previous on the first page and Next on the last', async () => {
    const onPageChange = vi.fn();
    const { unmount } = await renderTable({ totalNumberOfRecords: 15, page: 0, onPageChange });
    expect(screen.getByRole('button', { name: 'Vorherige Seite' }).hasAttribute('disabled')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Vorherige Seite' }));
    expect(onPageChange).not.toHaveBeenCalled();
    unmount();
    await renderTable({ totalNumberOfRecords: 15, page: 1, rows: makeRows(5, 10), onPageChange });
    expect(screen.getByRole('button', { name: 'Nächste Seite' }).hasAttribute('disabled')).toBe(true);
  });

  it('offers the rows-per-page choice when the caller handles it', async () => {
    await renderTable({ totalNumberOfRecords: 50, onPageSizeChange: () => {} });
    expect(screen.getByText('Zeilen pro Seite')).toBeTruthy();
  });

  it('shows "no info found" when empty, or the caller text', async () => {
    const { unmount } = await renderTable({ rows: [], totalNumberOfRecords: 0 });
    expect(screen.getByText('Keine Informationen gefunden')).toBeTruthy();
    unmount();
    await renderTable({ rows: [], totalNumberOfRecords: 0, emptyText: 'Keine Standorte' });
    expect(screen.getByText('Keine Standorte')).toBeTruthy();
    expect(screen.queryByText('Keine Informationen gefunden')).toBeNull();
  });

  it('shows a loading state instead of the empty text while loading', async () => {
    await renderTable({ rows: [], totalNumberOfRecords: 0, isLoading: true });
    expect(screen.getByRole('progressbar', { name: 'Laden…' })).toBeTruthy();
    expect(screen.queryByText('Keine Informationen gefunden')).toBeNull();
  });

  it('counts selected rows in the label', async () => {
    function Selectable() {
      const [keys, setKeys] = useState<Set<string | number>>(new Set(['L2']));
      return (
        <DataTable<Loc>
          aria-label="Standorte"
          columns={columns}
          rows={makeRows(10)}
          getRowId={(r) => r.id}
          totalNumberOfRecords={30}
          page={0}
          pageSize={10}
          onPageChange={() => {}}
          selectionMode="multiple"
          selectedKeys={keys}
          onSelectionChange={setKeys}
        />
      );
    }
    await renderWithI18n(<Selectable />);
    expect(screen.getByTestId('selection-count').textContent).toBe('1 Zeile ausgewählt');
    const row3 = screen.getByText('Standort 3').closest('[role="row"]') as HTMLElement;
    await act(async () => {
      fireEvent.click(within(row3).getByRole('checkbox'));
    });
    expect(screen.getByTestId('selection-count').textContent).toBe('2 Zeilen ausgewählt');
    const selectAll = within(screen.getAllByRole('row')[0]).getByRole('checkbox');
    await act(async () => {
      fireEvent.click(selectAll);
    });
    expect(screen.getByTestId('selection-count').textContent).toBe('10 Zeilen ausgewählt');
  });

  it('reports row actions with the row', async () => {
    const onRowAction = vi.fn();
    await renderTable({ onRowAction });
    const row = screen.getByText('Standort 4').closest('[role="row"]') as HTMLElement;
    fireEvent.click(row);
    expect(onRowAction).toHaveBeenCalledWith('L4', { id: 'L4', name: 'Standort 4' });
  });

  it('renders English texts in English', async () => {
    await renderWithI18n(
      <DataTable<Loc>
        aria-label="Locations"
        columns={columns}
        rows={[]}
        getRowId={(r) => r.id}
        totalNumberOfRecords={0}
        page={0}
        pageSize={10}
        onPageChange={() => {}}
      />,
      { locale: 'en' },
    );
    expect(screen.getByText('No info found')).toBeTruthy();
  });
});

describe('DataTable folding', () => {
  interface Wide {
    id: string;
    name: string;
    city: string;
    model: string;
    status: string;
  }
  const wideColumns: DataTableColumn<Wide>[] = [
    { id: 'name', header: 'Name', cell: (r) => r.name, isRowHeader: true },
    { id: 'city', header: 'Ort', cell: (r) => r.city, fold: 'lg' },
    { id: 'model', header: 'Modell', cell: (r) => r.model, fold: 'xl' },
    { id: 'status', header: 'Status', cell: (r) => r.status },
  ];
  const row: Wide = { id: 'W1', name: 'Wallbox 1', city: 'Leipzig', model: 'ABL eMH1', status: 'Aktiv' };

  async function renderAt(width: number) {
    const observed = vi.fn();
    vi.stubGlobal(
      'ResizeObserver',
      class {
        observe = observed;
        disconnect() {}
      },
    );
    const spy = vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(width);
    await renderWithI18n(
      <DataTable<Wide>
        aria-label="Geräte"
        columns={wideColumns}
        rows={[row]}
        getRowId={(r) => r.id}
        totalNumberOfRecords={1}
        page={0}
        pageSize={10}
        onPageChange={() => {}}
      />,
    );
    spy.mockRestore();
    vi.unstubAllGlobals();
    return screen.getByRole('grid', { name: 'Geräte' });
  }

  it('shows every column on a wide table', async () => {
    const grid = await renderAt(1400);
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Name', 'Ort', 'Modell', 'Status']);
  });

  it('folds secondary columns under the row name on a tablet, keeping the status in view', async () => {
    const grid = await renderAt(1100);
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Name', 'Ort', 'Status']);
    expect(within(grid).getByRole('rowheader').textContent).toContain('Modell:ABL eMH1');

    cleanup();
    const narrow = await renderAt(736);
    expect(
      within(narrow)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Name', 'Status']);
    const name = within(narrow).getByRole('rowheader');
    expect(name.textContent).toContain('Ort:Leipzig');
    expect(name.textContent).toContain('Modell:ABL eMH1');
    // Each value once: a folded column is not also rendered hidden.
    expect(within(narrow).getAllByText('Leipzig')).toHaveLength(1);
  });
});
