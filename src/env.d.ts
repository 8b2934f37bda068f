/** The app's version from package.json, set by vite.config.ts (shown on the settings page). */
declare const __APP_VERSION__: string;
