/** The app's version from package.json, set by vite.config.ts (shown on the settings page). */
declare const __APP_VERSION__: string;

/** A part of a locale file: vite.config.ts (`messageParts`) cuts it out as flat ids (src/i18n/message-parts.ts). */
declare module '*.json?signed-out' {
  const messages: Record<string, string>;
  export default messages;
}
declare module '*.json?signed-in' {
  const messages: Record<string, string>;
  export default messages;
}
