import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { corpusFile, corpusFiles, describeCorpus, invalidCorpusFiles, readCorpus } from './corpus.js';

describeCorpus('corpus', () => {
  it('lists the valid decks and the _invalid files of manifest.json', () => {
    const valid = corpusFiles();
    const invalid = invalidCorpusFiles();
    expect(valid.length + invalid.length).toBe(105);
    expect(invalid.map((f) => f.file).every((f) => f.includes('/_invalid/'))).toBe(true);
    expect(valid.some((f) => f.file.includes('/_invalid/'))).toBe(false);
    expect(invalid).toHaveLength(3);
  });

  it('carries slides, Strict flag, features and baseline per deck', () => {
    const scatter = corpusFile('pptx-automizer/ChartScatter.pptx');
    expect(scatter).toMatchObject({ slides: 4, strict: false, baseline: 45, baselineThrows: undefined });
    expect(scatter.features).toContain('charts');
    expect(corpusFile('Open-XML-SDK/2D Area-O12-PPT-Charts.pptx').strict).toBe(true);
    expect(corpusFile('python-pptx/no-slides.pptx').slides).toBe(0);
    expect(corpusFiles().filter((f) => f.strict)).toHaveLength(5);
  });

  it('reads the bytes the manifest describes', () => {
    for (const f of corpusFiles().slice(0, 5)) {
      const bytes = readCorpus(f);
      expect(bytes.length).toBe(f.bytes);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(f.sha256);
    }
    expect(readCorpus('pptx-automizer/ChartScatter.pptx')).toEqual(
      readCorpus(corpusFile('pptx-automizer/ChartScatter.pptx')),
    );
  });

  it('refuses a name the manifest does not list', () => {
    expect(() => corpusFile('nope/missing.pptx')).toThrow(/not in manifest/);
  });
});
