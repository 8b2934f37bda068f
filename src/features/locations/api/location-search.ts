import { listSearch, searchText } from '../../../ui/list-search';

/*
 * The /standorte search params, apart from the keys: the route reads them in the route tree, which the
 * first route (sign-in) loads, so this file imports nothing of the area or the contract.
 */

/** The filters of /standorte as the URL keeps them (with page and size). */
export const locationListSearch = listSearch({ locationName: searchText(), address: searchText() });
export type LocationListSearch = typeof locationListSearch.defaults;
export type LocationFilters = Omit<LocationListSearch, 'page' | 'size'>;
export const noLocationFilters: LocationFilters = { locationName: '', address: '' };
