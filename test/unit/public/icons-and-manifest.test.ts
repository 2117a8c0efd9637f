// public/ as the page uses it: web/index.html links the favicon, its fallback, the app icon
// and the manifest; the manifest names icons that exist and the app's own colours.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (p: string) => readFileSync(new URL(`../../../${p}`, import.meta.url), 'utf8');
const inPublic = (href: string) => existsSync(new URL(`../../../public${href}`, import.meta.url));
const html = read('web/index.html');
const manifest = JSON.parse(read('public/manifest.webmanifest')) as {
  name: string; short_name: string; start_url: string; display: string;
  background_color: string; theme_color: string; icons: { src: string; sizes: string; type: string; purpose?: string }[];
};

/** Each `<link rel=… href=…>` of the page, as [rel, href]. */
const links = [...html.matchAll(/<link\s+rel="([^"]+)"\s+href="([^"]+)"/g)].map((m) => [m[1], m[2]] as const);

describe('public/: the favicon, the app icons and the manifest', () => {
  it('the page links the SVG favicon, a PNG fallback, the touch icon and the manifest, each a file of public/', () => {
    expect(links).toEqual(expect.arrayContaining([
      ['icon', '/favicon.svg'], ['icon', '/favicon-32.png'], ['apple-touch-icon', '/apple-touch-icon.png'], ['manifest', '/manifest.webmanifest'],
    ]));
    for (const [rel, href] of links) expect(inPublic(href), `${rel} ${href}`).toBe(true);
  });

  it('the favicon follows the browser\'s colour scheme, as the page does', () => {
    const svg = read('public/favicon.svg');
    expect(svg).toMatch(/@media \(prefers-color-scheme: dark\)/);
  });

  it('the manifest installs the app standalone at the page, with icons of 192 and 512 px that exist', () => {
    expect(manifest).toMatchObject({ name: 'mrtr-inspector', start_url: '/', display: 'standalone' });
    expect(manifest.short_name.length).toBeLessThanOrEqual(12);
    const sizes = manifest.icons.map((i) => i.sizes);
    expect(sizes).toEqual(expect.arrayContaining(['192x192', '512x512']));
    for (const icon of manifest.icons) expect(inPublic(icon.src), icon.src).toBe(true);
  });

  it('the manifest and the page\'s theme-color use the app\'s light background, and the dark one in dark mode', () => {
    const app = read('web/App.svelte');
    const light = /:global\(:root\) \{\s*color-scheme: light dark;\s*--bg: (#[0-9a-f]{6})/.exec(app)?.[1];
    const dark = /prefers-color-scheme: dark\) \{\s*:global\(:root\) \{\s*--bg: (#[0-9a-f]{6})/.exec(app)?.[1];
    expect(light).toBeDefined();
    expect(dark).toBeDefined();
    expect(manifest.background_color).toBe(light);
    expect(manifest.theme_color).toBe(light);
    expect(html).toContain(`<meta name="theme-color" media="(prefers-color-scheme: light)" content="${light}" />`);
    expect(html).toContain(`<meta name="theme-color" media="(prefers-color-scheme: dark)" content="${dark}" />`);
  });
});
