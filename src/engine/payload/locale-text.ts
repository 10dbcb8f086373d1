/**
 * What a locale (`presentation.locale`, BCP 47) gives formatted values: decimal and group separators, month and
 * day names, AM/PM. Read from Intl (ICU is built into Node), made once per locale (`LocaleText.of`: an
 * Intl.NumberFormat costs about as much as parsing a 10-slide payload) and shared by the parse contexts that
 * use it. Digits stay Latin, as in a spreadsheet cell.
 */
export const DEFAULT_LOCALE = 'en-US';

/** Locales kept by LocaleText.of; a payload may name any tag Intl knows, so the map starts again past this. */
const LOCALES_KEPT = 64;
const byLocale = new Map<string, LocaleText>();

export class LocaleText {
  /** The LocaleText of `locale`, made on its first use. */
  static of(locale: string): LocaleText {
    let text = byLocale.get(locale);
    if (text === undefined) {
      if (byLocale.size >= LOCALES_KEPT) byLocale.clear();
      text = new LocaleText(locale);
      byLocale.set(locale, text);
    }
    return text;
  }

  private readonly names = new Map<string, string>();
  private separators: { decimal: string; group: string } | undefined;

  constructor(readonly locale: string) {}

  get decimal(): string {
    return this.separatorsOf().decimal;
  }

  get group(): string {
    return this.separatorsOf().group;
  }

  /**
   * Read on first use, not when a parse context is made: a thread's first Intl formatter loads ICU's locale data
   * (~13 ms of a 10-slide `deckforge generate`), which a payload without formatted numbers never needs.
   */
  private separatorsOf(): { decimal: string; group: string } {
    if (this.separators === undefined) {
      const parts = new Intl.NumberFormat(this.locale, { useGrouping: true }).formatToParts(1234567.5);
      this.separators = {
        decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
        group: parts.find((p) => p.type === 'group')?.value ?? ',',
      };
    }
    return this.separators;
  }

  /**
   * Month names come in two forms in many languages: with a day ("5 марта") and alone ("март"); the form with
   * a day is taken when the format shows the day of the month.
   */
  monthLong(month: number, withDay: boolean): string {
    return this.monthName(month, 'long', withDay);
  }

  monthShort(month: number, withDay: boolean): string {
    return this.monthName(month, 'short', withDay);
  }

  weekdayLong(weekday: number): string {
    return this.name(`wl${weekday}`, { weekday: 'long' }, sunday(weekday), 'weekday');
  }

  weekdayShort(weekday: number): string {
    return this.name(`ws${weekday}`, { weekday: 'short' }, sunday(weekday), 'weekday');
  }

  dayPeriod(morning: boolean): string {
    const at = new Date(Date.UTC(2001, 0, 7, morning ? 9 : 15));
    return this.name(`p${morning}`, { hour: 'numeric', hour12: true }, at, 'dayPeriod');
  }

  private monthName(month: number, width: 'long' | 'short', withDay: boolean): string {
    const at = new Date(Date.UTC(2001, month - 1, 5));
    const options: Intl.DateTimeFormatOptions = withDay ? { month: width, day: 'numeric' } : { month: width };
    return this.name(`m${width}${withDay}${month}`, options, at, 'month');
  }

  private name(key: string, options: Intl.DateTimeFormatOptions, at: Date, part: string): string {
    let found = this.names.get(key);
    if (found === undefined) {
      const parts = new Intl.DateTimeFormat(this.locale, { ...options, timeZone: 'UTC' }).formatToParts(at);
      found = parts.find((p) => p.type === part)?.value ?? '';
      this.names.set(key, found);
    }
    return found;
  }
}

/** 7 January 2001 was a Sunday: day `weekday` of that week. */
function sunday(weekday: number): Date {
  return new Date(Date.UTC(2001, 0, 7 + weekday));
}

/**
 * The longest `locale` read (docs/payload.md, Numbers and dates). Real tags are a few dozen characters at most;
 * ICU's time grows with the tag's length (a 1.2 MB tag of private-use subtags held the event loop for seconds).
 */
export const MAX_LOCALE_LENGTH = 100;

/** The canonical form of a BCP 47 tag Intl knows, or null; a tag over MAX_LOCALE_LENGTH never reaches Intl. */
export function canonicalLocale(tag: string): string | null {
  if (tag.length > MAX_LOCALE_LENGTH) return null;
  try {
    const [canonical] = Intl.getCanonicalLocales(tag);
    if (canonical === undefined) return null;
    return Intl.NumberFormat.supportedLocalesOf([canonical]).length > 0 ? canonical : null;
  } catch {
    return null;
  }
}
