/**
 * The pictures the examples use, drawn from SVG with sharp (the image library the server itself uses):
 * `logo.png`, a 480 × 160 wordmark on a transparent background, and `team.jpg`, a 1200 × 800 landscape "photo".
 * make-brand-template.ts writes them to examples/ beside brand.pptx, which shows a second logo of its own.
 */
import sharp from 'sharp';

/** A wordmark: a rounded mark in `colour` and the name beside it. */
export function logoSvg(name: string, colour: string, accent: string): string {
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" width="480" height="160" viewBox="0 0 480 160">' +
    `<rect x="8" y="16" width="128" height="128" rx="28" fill="${colour}"/>` +
    `<path d="M40 112 L72 44 L104 112 Z" fill="none" stroke="#fff" stroke-width="12" stroke-linejoin="round"/>` +
    `<circle cx="72" cy="92" r="9" fill="${accent}"/>` +
    `<text x="160" y="102" font-family="DejaVu Sans, Arial, sans-serif" font-size="64" font-weight="bold" fill="${colour}">${name}</text>` +
    '</svg>'
  );
}

export async function logoPng(name: string, colour: string, accent: string): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp(Buffer.from(logoSvg(name, colour, accent)))
      .png()
      .toBuffer(),
  );
}

/** A landscape at dusk: sky, sun, three ranges of hills, a lake. */
const LANDSCAPE =
  '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800" viewBox="0 0 1200 800">' +
  '<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#1E3A8A"/><stop offset="0.55" stop-color="#F59E0B"/><stop offset="1" stop-color="#FDE68A"/></linearGradient>' +
  '<linearGradient id="lake" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#F8C471"/><stop offset="1" stop-color="#1E3A8A"/></linearGradient></defs>' +
  '<rect width="1200" height="800" fill="url(#sky)"/>' +
  '<circle cx="820" cy="430" r="90" fill="#FFF7D6" opacity="0.9"/>' +
  '<path d="M0 470 C180 380 320 420 480 360 C640 300 760 420 920 380 C1040 350 1120 390 1200 370 L1200 800 L0 800 Z" fill="#7C3AED" opacity="0.55"/>' +
  '<path d="M0 540 C160 470 300 520 460 470 C620 420 780 520 960 480 C1080 455 1150 480 1200 470 L1200 800 L0 800 Z" fill="#4C1D95" opacity="0.8"/>' +
  '<path d="M0 600 C200 560 360 600 560 575 C760 550 960 610 1200 580 L1200 800 L0 800 Z" fill="#1F2937"/>' +
  '<rect y="640" width="1200" height="160" fill="url(#lake)" opacity="0.85"/>' +
  '<path d="M640 650 h360 M700 690 h240 M760 725 h120" stroke="#FFF7D6" stroke-width="6" stroke-linecap="round" opacity="0.6"/>' +
  '</svg>';

export async function landscapeJpeg(): Promise<Uint8Array> {
  return new Uint8Array(await sharp(Buffer.from(LANDSCAPE)).jpeg({ quality: 82 }).toBuffer());
}
