// Writes the PNG icons in public/ from their SVGs, drawn by Debian's Chromium (no image
// tool needed): `npm run gen:icons`. The PNGs are for browsers and platforms that want
// bitmaps (the manifest's 192 and 512, the favicon's fallback, iOS's home screen).
import { readFileSync, writeFileSync } from 'node:fs';
import { chromium } from '@playwright/test';

const PUBLIC = new URL('../../public/', import.meta.url);
const RENDERS: [svg: string, png: string, size: number][] = [
  ['icon.svg', 'icon-192.png', 192],
  ['icon.svg', 'icon-512.png', 512],
  ['icon.svg', 'apple-touch-icon.png', 180],
  ['favicon.svg', 'favicon-32.png', 32],
];

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
try {
  // Light scheme: the bitmaps cannot follow the browser's scheme as the SVG favicon does.
  const page = await browser.newPage({ colorScheme: 'light' });
  for (const [svg, png, size] of RENDERS) {
    const data = readFileSync(new URL(svg, PUBLIC)).toString('base64');
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(`<body style="margin:0"><img src="data:image/svg+xml;base64,${data}" width="${size}" height="${size}" style="display:block"></body>`);
    await page.locator('img').evaluate((img: HTMLImageElement) => img.decode());
    writeFileSync(new URL(png, PUBLIC), await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } }));
    console.log(`wrote public/${png} (${size}x${size})`);
  }
} finally {
  await browser.close();
}
