/**
 * Which of the fonts a deck asks for this machine lacks, and what fontconfig (which LibreOffice draws with)
 * uses instead: `fc-list : family` once for the installed families, `fc-match` once per missing family, for at
 * most MAX_FONT_LOOKUPS of them per deck and at most FC_MATCH_AT_ONCE at once in the whole process
 * (docs/security.md, "Nothing of one request blocks the others"). The families come from the render-safe copy,
 * read on a generation thread: nothing here reads the deck.
 */
import { MAX_FONT_LOOKUPS } from '../../service/ports/index.js';
import { findExecutable, runTool } from './render-tools.js';

export interface FontSubstitution {
  requested: string;
  used: string;
}

export interface FontReport {
  substituted: FontSubstitution[];
  /** Missing families past MAX_FONT_LOOKUPS, not looked up. */
  notLookedUp: string[];
}

const TOOL_TIMEOUT_MS = 15_000;
/** `fc-match` processes at once, whatever the number of decks being rendered. */
export const FC_MATCH_AT_ONCE = 2;

/** A slot for one `fc-match`; shared by every FontSubstitutions of the process. */
const lookupSlots = {
  free: FC_MATCH_AT_ONCE,
  waiting: [] as (() => void)[],
  async take(): Promise<() => void> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    return () => {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    };
  },
};

export class FontSubstitutions {
  private installed: Promise<Set<string> | null> | null = null;
  private readonly matches = new Map<string, Promise<string>>();
  private readonly fcList: string | null;
  private readonly fcMatch: string | null;

  constructor(searchPath: string) {
    this.fcList = findExecutable('fc-list', searchPath);
    this.fcMatch = findExecutable('fc-match', searchPath);
  }

  /**
   * The missing ones of `families` (each once, as the render-safe copy lists them) with their stand-ins. Nothing
   * when fontconfig's tools are missing (nothing can be said then).
   */
  async of(families: readonly string[]): Promise<FontReport> {
    if (!this.fcList || !this.fcMatch) return { substituted: [], notLookedUp: [] };
    const installed = await this.installedFamilies();
    if (!installed) return { substituted: [], notLookedUp: [] };
    const missing = families.filter((family) => !installed.has(family.toLowerCase()));
    const looked = missing.slice(0, MAX_FONT_LOOKUPS);
    const substituted = await Promise.all(
      looked.map(async (requested) => ({ requested, used: await this.match(requested) })),
    );
    return { substituted, notLookedUp: missing.slice(MAX_FONT_LOOKUPS) };
  }

  private installedFamilies(): Promise<Set<string> | null> {
    this.installed ??= runTool(this.fcList as string, [':', 'family'], { timeoutMs: TOOL_TIMEOUT_MS }).then(
      (run) =>
        new Set(
          // One font a line; a family with localised names lists them all, separated by commas.
          run.stdout
            .split('\n')
            .flatMap((line) => line.split(','))
            .map((name) => name.replace(/\\-/g, '-').trim().toLowerCase())
            .filter(Boolean),
        ),
      () => {
        this.installed = null; // Try again next time.
        return null;
      },
    );
    return this.installed;
  }

  private match(family: string): Promise<string> {
    let found = this.matches.get(family);
    if (!found) {
      found = lookupSlots.take().then((release) =>
        runTool(this.fcMatch as string, ['-f', '%{family[0]}', family], { timeoutMs: TOOL_TIMEOUT_MS })
          .then(
            (run) => run.stdout.trim() || 'unknown',
            () => 'unknown',
          )
          .finally(release),
      );
      this.matches.set(family, found);
    }
    return found;
  }
}
