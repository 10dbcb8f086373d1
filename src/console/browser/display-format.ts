/**
 * How the console writes dates, numbers and allowances: one style on every page, in the browser's language.
 * Moments (a token's expiry, a job's end) read "27 Nov 2026, 19:20" in local time; days (a reset date, a
 * period's bounds) read "27 Nov 2026", taken as calendar days (UTC), so no time zone moves them to another day.
 * File sizes read "2.4 MB" in the units of the server's limit messages (1 MB = 1 048 576 bytes).
 */

const MOMENT = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const DAY = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
const COUNT = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });

/**
 * The allowance a plan without a real ceiling carries (the built-in Operator plan, docs/configuration.md
 * `DECKFORGE_PLANS`); at or above it the console says "unlimited".
 */
export const UNLIMITED_SLIDES = 1_000_000_000;

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : MOMENT.format(date);
}

/** A calendar day, given as `2026-12-01` or as a moment (`2026-12-01T00:00:00Z`, its UTC day). */
export function formatDay(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(iso) ? `${iso}T00:00:00Z` : iso);
  return Number.isNaN(date.getTime()) ? iso : DAY.format(date);
}

export function formatCount(value: number): string {
  return COUNT.format(value);
}

const KB = 1024;
const MB = 1024 * KB;
const SIZE = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

/** "812 bytes", "14.2 KB", "2.4 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < KB) return `${formatCount(bytes)} bytes`;
  if (bytes < MB) return `${SIZE.format(bytes / KB)} KB`;
  return `${SIZE.format(bytes / MB)} MB`;
}

/** "1,234 of 5,000 slides used", or "1,234 slides used (unlimited)" on a plan without a ceiling. */
export function slideAllowance(used: number, allowed: number): { text: string; unlimited: boolean } {
  if (allowed >= UNLIMITED_SLIDES) {
    return { text: `${formatCount(used)} slides used (unlimited)`, unlimited: true };
  }
  return { text: `${formatCount(used)} of ${formatCount(allowed)} slides used`, unlimited: false };
}

const EMU_PER_CM = 360_000;
const EMU_PER_INCH = 914_400;
const LENGTH = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });

/** A slide's size as people know it: "33.87 × 19.05 cm (13.33 × 7.5 in)", from EMU. */
export function formatSlideSize(cx: number, cy: number): string {
  const cm = `${LENGTH.format(cx / EMU_PER_CM)} × ${LENGTH.format(cy / EMU_PER_CM)} cm`;
  return `${cm} (${LENGTH.format(cx / EMU_PER_INCH)} × ${LENGTH.format(cy / EMU_PER_INCH)} in)`;
}
