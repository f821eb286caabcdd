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
await page.waitForSelector('[data-state=ready]', { timeout: 20000 });
await page.waitForTimeout(300);
await page.screenshot({ path: out, fullPage: true });
console.log(`saved ${out}`);
await browser.close();
