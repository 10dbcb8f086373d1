/**
 * Every chart of every valid corpus deck, filled twice: with one series and two categories more than the
 * template, and with fewer. One output deck per corpus deck holds both variants of every chart slide and is
 * validated once; then the caches must hold the payload, and the embedded workbook (read with ExcelJS) must hold
 * the same values at the cells the formulas name.
 */
import { it } from 'vitest';
import { corpusFiles, describeCorpus, readCorpus } from '../../support/corpus/corpus.js';
import { sweepCharts } from './chart-sweep.js';

const decks = corpusFiles().filter((f) => !f.strict && f.features.some((x) => x.startsWith('chart')));

describeCorpus('every corpus chart, more and fewer series and categories', () => {
  it.each(decks.map((d) => [d.file, d] as const))(
    '%s',
    async (_name, deck) => {
      await sweepCharts(readCorpus(deck), deck.file);
    },
    120_000,
  );
});
