/**
 * Which of the fonts a deck asks for this machine lacks, and what fontconfig (which LibreOffice draws with)
 * uses instead: `fc-list : family` once for the installed families, `fc-match` once per missing family.
 */
import { readFile } from 'node:fs/promises';
import { requestedFonts } from '../../engine/index.js';
import { findExecutable, runTool } from './render-tools.js';

export interface FontSubstitution {
  requested: string;
  used: string;
}

const TOOL_TIMEOUT_MS = 15_000;

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
   * The deck's missing families with their stand-ins. [] when fontconfig's tools are missing (nothing can be
   * said then) or the deck cannot be read (LibreOffice reports that itself).
   */
  async of(deckFile: string): Promise<FontSubstitution[]> {
    if (!this.fcList || !this.fcMatch) return [];
    let families: string[];
    try {
      families = requestedFonts(new Uint8Array(await readFile(deckFile)));
    } catch {
      return [];
    }
    const installed = await this.installedFamilies();
    if (!installed) return [];
    const missing = families.filter((family) => !installed.has(family.toLowerCase()));
    return Promise.all(missing.map(async (requested) => ({ requested, used: await this.match(requested) })));
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
      found = runTool(this.fcMatch as string, ['-f', '%{family[0]}', family], {
        timeoutMs: TOOL_TIMEOUT_MS,
      }).then(
        (run) => run.stdout.trim() || 'unknown',
        () => 'unknown',
      );
      this.matches.set(family, found);
    }
    return found;
  }
}
