/**
 * The icon browsers ask for on every page (`/favicon.ico`, and `/favicon.svg` that the console and /docs name):
 * one small SVG — a slide with a title bar and a chart's bars — served under both names. Browsers take an SVG
 * for `/favicon.ico` by its content type.
 */
export const FAVICON_PATH = '/favicon.svg';

export const FAVICON_SVG = [
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">',
  '<rect x="1" y="5" width="30" height="22" rx="3" fill="#1f4e79"/>',
  '<rect x="5" y="9" width="14" height="3" rx="1" fill="#ffffff"/>',
  '<rect x="6" y="17" width="4" height="6" fill="#f4b183"/>',
  '<rect x="12" y="14" width="4" height="9" fill="#9dc3e6"/>',
  '<rect x="18" y="16" width="4" height="7" fill="#f4b183"/>',
  '<rect x="24" y="12" width="4" height="11" fill="#9dc3e6"/>',
  '</svg>',
].join('');

/** The `<link>` each HTML page carries. */
export const FAVICON_LINK = `<link rel="icon" type="image/svg+xml" href="${FAVICON_PATH}">`;
