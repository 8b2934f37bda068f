/**
 * How long persisted query data may be restored. Shared by the persister (`maxAge`) and the query
 * client (`gcTime`): a gcTime below maxAge would garbage-collect, and thereby un-persist, data
 * before it is too old to show offline.
 */
export const PERSIST_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
