import { listSearch, searchList, searchText } from '../../../ui/list-search';

/*
 * The /stationen search params, apart from the keys: the route reads them in the route tree, which the
 * first route (sign-in) loads, so this file imports nothing of the area or the contract.
 */

/** The filters of /stationen as the URL keeps them (with page and size). */
export const stationListSearch = listSearch({
  cpId: searchText(),
  addressParkingLot: searchText(),
  locationIds: searchList(),
  wallboxModels: searchList(),
});
export type StationListSearch = typeof stationListSearch.defaults;
export type StationFilters = Omit<StationListSearch, 'page' | 'size'>;
export const noStationFilters: StationFilters = { cpId: '', addressParkingLot: '', locationIds: [], wallboxModels: [] };
