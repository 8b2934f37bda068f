import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { messageParts } from './vite.config';

export default defineConfig({
  test: {
    // PGlite instances are memory-hungry WASM; keep parallelism within the 2-core machine.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'server',
          include: ['server/**/*.test.ts', 'contract/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: { name: 'tooling', include: ['eslint-rules/**/*.test.ts', 'scripts/**/*.test.ts'], environment: 'node', testTimeout: 30_000 },
      },
      {
        // messageParts: the locale files' signed-out and signed-in parts, as the app loads them.
        plugins: [react(), messageParts()],
        test: {
          name: 'web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['src/test-setup.ts'],
        },
      },
    ],
  },
});
