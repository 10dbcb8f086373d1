import { expect, it } from 'vitest';
import { describeCorpus, readCorpus } from '../corpus/corpus.js';
import { expectValidPptx, newPptxProblems } from './expect-valid-pptx.js';
import { editPackage, editPart } from '../decks/package-edit.js';

describeCorpus('expectValidPptx', () => {
  it('accepts a re-zipped unchanged deck, even one with upstream flaws and validator errors', async () => {
    const flawed = readCorpus('pptx-automizer/GS_Tables_Merged.pptx'); // notes without back-links
    await expectValidPptx(
      editPackage(flawed, () => undefined),
      flawed,
    );
    const charts = readCorpus('pptx-automizer/ChartBarsStacked.pptx'); // 6 validator errors
    await expectValidPptx(
      editPackage(charts, () => undefined),
      charts,
    );
  });

  it('fails with a readable list naming both invariant and validator problems', async () => {
    const template = readCorpus('python-pptx/txt-font-props.pptx');
    const broken = editPart(template, 'ppt/slides/slide1.xml', (x) =>
      x
        .replace('<p:cNvPr id="2" name="TextBox 1"/>', '<p:cNvPr id="1" name="TextBox 1"/>')
        .replace('<a:off x="2718725"', '<a:off x="27.5"'),
    );
    const problems = await newPptxProblems(broken, template);
    expect(problems).toContain(
      'invariant: shape-id-duplicate /ppt/slides/slide1.xml: p:cNvPr id="1" is used by more than one shape',
    );
    expect(problems.some((p) => p.startsWith('validator: ') && p.includes('/ppt/slides/slide1.xml'))).toBe(
      true,
    );
    await expect(expectValidPptx(broken, template)).rejects.toThrow(
      /3 problem\(s\) its template does not have:\n {2}- invariant: attr-not-integer[^\n]*\n {2}- invariant: shape-id-duplicate/,
    );
  });

  it('reports an archive that does not reopen without asking the validator', async () => {
    const template = readCorpus('python-pptx/shp-freeform.pptx');
    const problems = await newPptxProblems(template.slice(0, 500), template);
    expect(problems).toEqual([expect.stringMatching(/^invariant: zip-unreadable/)]);
  });
});
