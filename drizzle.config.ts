import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // One file per area; drizzle-kit reads every file of the folder.
  schema: './server/src/db/schema',
  out: './server/src/db/migrations',
});
