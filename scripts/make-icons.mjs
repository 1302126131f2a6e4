#!/usr/bin/env node
// Renders the app icons in public/ from public/favicon.svg with the Chromium the e2e tests use, so
// no image package is needed. The PNGs are committed; run this again only when the logo changes:
//   node scripts/make-icons.mjs
//
// - icon-192.png, icon-512.png: the logo as drawn (rounded square, transparent corners), for
//   browsers and operating systems that show the icon as is.
// - icon-maskable-512.png: full-bleed background with the glyph inside the central 80 % circle,
//   because Android and some launchers crop maskable icons to their own shape.
// - apple-touch-icon.png (180): full-bleed, since iOS fills transparent pixels with black.
import { readFileSync, writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const publicDir = new URL('../public/', import.meta.url);
const logo = readFileSync(new URL('favicon.svg', publicDir), 'utf8');

// The background square is the first <rect>; everything after it is the glyph.
const background = /<rect\b[^>]*\bfill="(#[0-9a-f]{3,8})"[^>]*\/>/i.exec(logo);
if (!background) throw new Error('favicon.svg: no background <rect fill="#…"/> found');
const glyph = logo
	.slice(background.index + background[0].length)
	.replace(/<\/svg>\s*$/, '')
	.trim();

/** The glyph on a full square, scaled about the centre so it stays in the safe zone. */
function fullBleed(scale) {
	return (
		'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">' +
		`<rect width="64" height="64" fill="${background[1]}"/>` +
		`<g transform="translate(32 32) scale(${scale}) translate(-32 -32)">${glyph}</g></svg>`
	);
}

const icons = [
	{ file: 'icon-192.png', size: 192, svg: logo },
	{ file: 'icon-512.png', size: 512, svg: logo },
	{ file: 'icon-maskable-512.png', size: 512, svg: fullBleed(0.72) },
	{ file: 'apple-touch-icon.png', size: 180, svg: fullBleed(0.86) },
];

const browser = await chromium.launch({
	executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
	args: ['--no-sandbox', '--disable-gpu'],
});
try {
	const page = await browser.newPage({ deviceScaleFactor: 1 });
	for (const { file, size, svg } of icons) {
		await page.setViewportSize({ width: size, height: size });
		const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
		await page.setContent(
			`<body style="margin:0;background:transparent"><img src="${src}" width="${size}" height="${size}" style="display:block"></body>`,
		);
		await page.locator('img').evaluate((img) => img.decode());
		const png = await page.screenshot({
			omitBackground: true,
			clip: { x: 0, y: 0, width: size, height: size },
		});
		writeFileSync(new URL(file, publicDir), png);
		console.log(`public/${file}: ${size}×${size}, ${png.length} bytes`);
	}
} finally {
	await browser.close();
}
