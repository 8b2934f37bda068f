// Renders the PWA icons from their SVG sources with Debian's Chromium (run by hand with `npx tsx scripts/render-icons.ts`; the PNGs are committed).
import { chromium } from 'playwright-core';
import { readFileSync, writeFileSync } from 'node:fs';

const jobs: Array<[string, string, number]> = [
  ['public/icons/icon.svg', 'public/icons/icon-192.png', 192],
  ['public/icons/icon.svg', 'public/icons/icon-512.png', 512],
  ['scripts/icon-maskable.svg', 'public/icons/icon-maskable-512.png', 512],
];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
for (const [src, out, size] of jobs) {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  const svg = readFileSync(src, 'utf8').replace('<svg ', `<svg width="${size}" height="${size}" `);
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
  writeFileSync(out, await page.screenshot({ omitBackground: true }));
  await page.close();
}
await browser.close();
