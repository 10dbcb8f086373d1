/**
 * The fonts of a deck are looked up within bounds (docs/security.md, "Nothing of one request blocks the
 * others"): at most 20 missing families per deck, the rest told in one warning, and at most 2 `fc-match` at once
 * in the whole server, however many decks name how many fonts. fontconfig's own tools answer; `fc-match` is
 * reached through a wrapper that notes when each run starts and ends.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { FontSubstitutions } from '../../../src/adapters/libreoffice/font-substitutions.js';
import { findExecutable } from '../../../src/adapters/libreoffice/render-tools.js';
import { describeWithLibreOffice } from '../../support/servers/libreoffice.js';

const bin = mkdtempSync(join(tmpdir(), 'deckforge-font-lookups-'));
const runs = join(bin, 'runs.log');
afterAll(() => rmSync(bin, { recursive: true, force: true }));

describeWithLibreOffice('font lookups', () => {
  it('looks up at most 20 missing fonts of a deck, and runs at most 2 fc-match at once for decks side by side', async () => {
    const PATH = process.env.PATH ?? '';
    symlinkSync(findExecutable('fc-list', PATH) as string, join(bin, 'fc-list'));
    const fcMatch = findExecutable('fc-match', PATH) as string;
    writeFileSync(
      join(bin, 'fc-match'),
      `#!/bin/sh\necho "+ $$" >> '${runs}'\n'${fcMatch}' "$@"\nstatus=$?\nsleep 0.05\necho "- $$" >> '${runs}'\nexit $status\n`,
    );
    chmodSync(join(bin, 'fc-match'), 0o755);
    writeFileSync(runs, '');
    const deck = (label: string): string[] => [
      'DejaVu Sans', // installed: never looked up
      ...Array.from({ length: 300 }, (_, i) => `Deckforge ${label} ${i}`),
    ];
    // Two renderer pools' worth, each with two decks: the bound is the process's, not one pool's.
    const [one, two] = [new FontSubstitutions(bin), new FontSubstitutions(bin)];
    const reports = await Promise.all([
      one.of(deck('A')),
      one.of(deck('B')),
      two.of(deck('C')),
      two.of(deck('D')),
    ]);
    for (const [i, report] of reports.entries()) {
      const label = 'ABCD'[i] as string;
      expect(report.substituted.map((s) => s.requested)).toEqual(deck(label).slice(1, 21));
      for (const { used } of report.substituted) expect(used).not.toBe('');
      expect(report.notLookedUp).toEqual(deck(label).slice(21));
    }
    let running = 0;
    let most = 0;
    const lines = readFileSync(runs, 'utf8').trim().split('\n');
    for (const line of lines) {
      running += line.startsWith('+') ? 1 : -1;
      most = Math.max(most, running);
    }
    expect(lines.length).toBe(4 * 20 * 2);
    expect(most).toBe(2);
  }, 60_000);
});
