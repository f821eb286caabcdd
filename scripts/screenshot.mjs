#!/usr/bin/env node
// Headless screenshot of a page in Debian's Chromium, for looking at what we build.
// Usage: node scripts/screenshot.mjs URL OUT.png [width] [--dark]
import { launchChromium } from '../tests/browser/chromium.mjs';

const [url, out = 'artifacts/page.png', width = '1400'] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const dark = process.argv.includes('--dark');
const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: Number(width), height: 900 }, colorScheme: dark ? 'dark' : 'light' });
page.on('console', (m) => m.type() !== 'log' && console.log(`console ${m.type()}: ${m.text()}`));
page.on('pageerror', (e) => console.log(`page error: ${e.message}`));
await page.goto(url);
// Ready, and done with any large run or sweep still computing in the background worker (the Charts
// view starts its sweep a moment after the page is ready, hence the pause before looking).
await page.waitForSelector('[data-state=ready]', { timeout: 60000 });
await page.waitForTimeout(150);
await page.waitForFunction(
  () => !document.querySelector('[data-busy]') && [...document.querySelectorAll('[data-testid=sweep-progress]')].every((p) => p.hidden),
  null,
  { timeout: 60000 },
);
await page.waitForTimeout(300);
await page.screenshot({ path: out, fullPage: true });
console.log(`saved ${out}`);
await browser.close();
