import { searchChoice, searchDate, searchList, searchText, searchParams } from '../../../ui/list-search';

/*
 * The download center's URL: the open tab and each tab's last filters, so a reload or a shared
 * link opens the same form. Locations are ids, or ['all'] for every location (the history and
 * invoices tabs send 'all', which also takes in locations added later). Empty dates stand for the
 * default range (the last 7 days). Plain parsers: the route tree with this file is on the first route.
 */

export const downloadTabs = ['history', 'invoices', 'erp'] as const;
export type DownloadTab = (typeof downloadTabs)[number];

/** Stands for every location in the URL and on the wire (contract/downloads.ts ALL_LOCATIONS). */
export const ALL_LOCATIONS = 'all';

export const downloadSearch = searchParams({
  tab: searchChoice(downloadTabs, 'history'),
  hLoc: searchList(1000),
  hFrom: searchDate,
  hTo: searchDate,
  hType: searchChoice(['NORMAL', 'AD_HOC'] as const, 'NORMAL'),
  iLoc: searchList(1000),
  iFrom: searchDate,
  iTo: searchDate,
  cpo: searchText(100),
  eLoc: searchList(1000),
  pay: searchChoice(['SEPA', 'BANK_TRANSFER', 'STRIPE_SEPA', 'STRIPE_CARD'] as const, 'SEPA'),
  eFrom: searchDate,
  eTo: searchDate,
  /** The SEPA file's operator and collection date (ERP tab); an empty date stands for today. */
  sCpo: searchText(100),
  sDay: searchDate,
});
export type DownloadSearch = ReturnType<typeof downloadSearch>;
