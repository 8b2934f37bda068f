import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/errors';
import { renderWithI18n } from '../i18n/test-utils';
import { DetailPage, type DetailQuery } from './detail-page';

afterEach(cleanup);

type Thing = { id: string; name: string };

const query = (patch: Partial<DetailQuery<Thing>>): DetailQuery<Thing> => ({
  data: undefined,
  isPending: false,
  fetchStatus: 'idle',
  error: null,
  refetch: vi.fn(),
  ...patch,
});

const page = (q: DetailQuery<Thing>) => (
  <DetailPage
    query={q}
    messages="locations.detail"
    backHref="/standorte"
    header={(thing) => ({ title: thing.name, description: `Nr. ${thing.id}` })}
  >
    {(thing) => <p data-testid="body">{thing.id}</p>}
  </DetailPage>
);

describe('DetailPage', () => {
  it('shows the header with the way back and the page once the entity is there, also after a failed refetch', async () => {
    await renderWithI18n(page(query({ data: { id: 'L1', name: 'Depot' }, error: new ApiError({ status: 500 }) })));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Depot');
    expect(screen.getByText('Nr. L1')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Zurück zu den Standorten' }).getAttribute('href')).toBe('/standorte');
    expect(screen.getByTestId('body').textContent).toBe('L1');
  });

  it('shows a spinner while loading', async () => {
    await renderWithI18n(page(query({ isPending: true, fetchStatus: 'fetching' })));
    expect(screen.queryByTestId('body')).toBeNull();
    expect(screen.getByRole('progressbar', { name: 'Laden…' })).toBeTruthy();
  });

  it('says the entity does not exist on a 404, under the page title, with the way back', async () => {
    await renderWithI18n(page(query({ error: new ApiError({ status: 404 }) })));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Standort');
    expect(screen.getByRole('alert').textContent).toContain('Diesen Standort gibt es nicht, oder er gehört nicht zu Ihren Betreibern.');
    expect(screen.queryByTestId('body')).toBeNull();
  });
});
