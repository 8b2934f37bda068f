// Types of server-layers.js for its test (the rules stay plain JavaScript, as eslint.config.js loads them).
import type { ESLint, Rule } from 'eslint';

export interface ServerPlace {
  layer: 'db' | 'http' | 'auth' | 'area' | 'app' | 'test';
  area?: string;
  module?: string;
}
export declare const areaImports: Record<string, string[]>;
export declare function serverPlaceOf(repoPath: string): ServerPlace | null;
export declare function areaCycle(table: Record<string, string[]>): string[] | null;
export declare function serverViolation(from: ServerPlace | null, to: ServerPlace | null, table?: Record<string, string[]>): string | null;
export declare const serverLayersRule: Rule.RuleModule;
declare const plugin: ESLint.Plugin;
export default plugin;
