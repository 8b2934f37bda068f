/**
 * Which areas' queries are kept on the device for offline use. Each area says so where it defines
 * its query keys (the root of its key factory, `all: queryRoot('stations', { persist: true })`);
 * the persister asks here, so offline/ names no area. Office work of platform admins that names
 * other companies (customers, RFID cards) is declared `persist: false` and never written to disk.
 */
const declared = new Map<string, boolean>();

/** The root of an area's query keys, declaring whether its queries are kept for offline use. */
export function queryRoot<const R extends string>(root: R, options: { persist: boolean }): readonly [R] {
  declared.set(root, options.persist);
  return [root];
}

/** What the area of `root` declared, or undefined while no module of this page load declared it. */
export function persistDeclared(root: unknown): boolean | undefined {
  return typeof root === 'string' ? declared.get(root) : undefined;
}
