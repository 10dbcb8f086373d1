import { describe, expect, it } from 'vitest';
import { corpusFile, itCorpus, readCorpus } from '../corpus/corpus.js';
import { editPackage, editPart } from '../decks/package-edit.js';
import {
  newValidatorErrors,
  VALIDATOR_CRASHED,
  validatePptx,
  validatorBaseline,
  validatorErrorKey,
} from './validator.js';

describe('validatePptx', () => {
  // Five decks with different baselines, from three producers.
  const files = [
    'pptx-automizer/ChartBarsStacked.pptx',
    'pptx-automizer/ChartScatter.pptx',
    'python-pptx/cht-datalabels.pptx',
    'Open-XML-SDK/mcppt.pptx',
    'python-pptx/shp-freeform.pptx',
  ];

  itCorpus.each(files)('reports the manifest baseline count for %s', async (file) => {
    const baseline = validatorBaseline(file);
    expect(baseline).toBeTypeOf('number');
    expect(await validatePptx(readCorpus(file))).toHaveLength(baseline ?? -1);
  });

  itCorpus(
    'turns a validator crash into one VALIDATOR_CRASHED result, and keeps working afterwards',
    async () => {
      const results = await validatePptx(readCorpus('Open-XML-SDK/_invalid/encrypted_pptx.pptx'));
      expect(results.map((r) => r.id)).toEqual([VALIDATOR_CRASHED]);
      expect(await validatePptx(readCorpus('Open-XML-SDK/mcppt.pptx'))).toHaveLength(2);
    },
  );

  itCorpus(
    'validates a deck with errors of the package itself, which the library alone cannot report',
    async () => {
      // The manifest's baseline was recorded with the library alone, which throws on this deck.
      const deck = corpusFile('unstructured/science-exploration-1p.pptx');
      expect(deck.baselineThrows).toMatch(/reading 'XPath'/);
      const results = await validatePptx(readCorpus(deck));
      expect(results.map((r) => [r.id, r.path.partUri])).toEqual([
        ['Pkg_PartIsNotAllowed', ''],
        ['Pkg_PartIsNotAllowed', ''],
        ['Pkg_PartIsNotAllowed', ''],
      ]);
      expect(results[0]!.description).toMatch(/CustomXmlPart\{\/customXml\/item1\.xml\}/);
    },
  );
});

describe('newValidatorErrors', () => {
  const template = readCorpus('pptx-automizer/ChartBarsStacked.pptx'); // 6 baseline errors in its charts

  itCorpus('is empty for a re-zipped, unchanged copy of a template with a non-zero baseline', async () => {
    const copy = editPackage(template, () => undefined);
    expect(copy).not.toEqual(template);
    expect(await newValidatorErrors(copy, template)).toEqual([]);
  });

  itCorpus('reports an error the template does not have', async () => {
    const broken = editPart(template, 'ppt/slides/slide1.xml', (x) =>
      x.replace('<p:cSld>', '<p:cSld><p:bogus/>'),
    );
    const errors = await newValidatorErrors(broken, template);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((e) => e.path.partUri === '/ppt/slides/slide1.xml')).toBe(true);
    expect(errors.map((e) => e.description).join('\n')).toMatch(/bogus/);
  });

  itCorpus(
    "allows the template's own error any number of times on renumbered parts (cloned charts)",
    async () => {
      // Copy chart2.xml (which carries baseline errors) to chart9.xml and chart10.xml, wired like clones.
      const cloned = editPackage(template, (f) => {
        const chart = f['ppt/charts/chart2.xml'];
        const chartRels = f['ppt/charts/_rels/chart2.xml.rels'];
        if (!chart || !chartRels) throw new Error('template changed: no chart2.xml');
        const ct = new TextDecoder().decode(f['[Content_Types].xml']);
        const rels = new TextDecoder().decode(f['ppt/slides/_rels/slide1.xml.rels']);
        let extraCt = '';
        let extraRels = '';
        for (const n of [9, 10]) {
          f[`ppt/charts/chart${n}.xml`] = chart;
          f[`ppt/charts/_rels/chart${n}.xml.rels`] = chartRels;
          extraCt += `<Override PartName="/ppt/charts/chart${n}.xml" ContentType="application/vnd.openxmlformats-officedocument.drawingml.chart+xml"/>`;
          extraRels += `<Relationship Id="rIdClone${n}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart" Target="../charts/chart${n}.xml"/>`;
        }
        f['[Content_Types].xml'] = new TextEncoder().encode(ct.replace('</Types>', `${extraCt}</Types>`));
        f['ppt/slides/_rels/slide1.xml.rels'] = new TextEncoder().encode(
          rels.replace('</Relationships>', `${extraRels}</Relationships>`),
        );
      });
      const all = await validatePptx(cloned);
      const templateCount = (await validatePptx(template)).length;
      expect(all.length).toBeGreaterThan(templateCount); // the clones repeat chart2's errors...
      expect(all.some((e) => e.path.partUri === '/ppt/charts/chart10.xml')).toBe(true);
      expect(await newValidatorErrors(cloned, template)).toEqual([]); // ...and that is not new
    },
  );

  it('keys an error by id, description and xpath: which part is compared with which is mapped apart', () => {
    const key = validatorErrorKey({
      id: 'Sch_X',
      description: 'd',
      path: { partUri: '/ppt/slides/slide17.xml', xpath: '/p:sld[1]/p:cSld[1]' },
    });
    expect(key).toBe('Sch_X | d | /p:sld[1]/p:cSld[1]');
  });

  itCorpus('reports the error one template slide has when another slide gets it too', async () => {
    const bogus = (x: string) => x.replace('<p:cSld>', '<p:cSld><p:bogus/>');
    const flawed = editPart(readCorpus('python-pptx/txt-font-props.pptx'), 'ppt/slides/slide1.xml', bogus);
    expect(
      await newValidatorErrors(
        editPackage(flawed, () => undefined),
        flawed,
      ),
    ).toEqual([]);
    const spread = editPart(flawed, 'ppt/slides/slide2.xml', bogus);
    const errors = await newValidatorErrors(spread, flawed);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.map((e) => e.path.partUri)).toEqual(errors.map(() => '/ppt/slides/slide2.xml'));
  });

  itCorpus('reports a crash on the output as new, even when the template crashes too', async () => {
    // A package whose content types part is not XML: the validator throws.
    const crashing = editPart(
      readCorpus('python-pptx/shp-freeform.pptx'),
      '[Content_Types].xml',
      () => '<Types',
    );
    const alsoCrashing = editPart(crashing, 'ppt/slides/slide1.xml', (x) =>
      x.replace('<p:cSld>', '<p:cSld><p:bogus/>'),
    );
    expect((await validatePptx(crashing)).map((e) => e.id)).toEqual([VALIDATOR_CRASHED]);
    expect((await newValidatorErrors(alsoCrashing, crashing)).map((e) => e.id)).toEqual([VALIDATOR_CRASHED]);
  });

  itCorpus(
    'validates a package whose relationships target missing parts, instead of crashing on it',
    async () => {
      // Without its presentation part, the SDK throws "Specified part does not exist" on the relationship to it;
      // validated again with that relationship marked external, the package gets its real errors.
      const missing = editPackage(readCorpus('python-pptx/shp-freeform.pptx'), (f) => {
        delete f['ppt/presentation.xml'];
      });
      const ids = (await validatePptx(missing)).map((e) => e.id);
      expect(ids).not.toContain(VALIDATOR_CRASHED);
      expect(ids).toContain('Pkg_RequiredPartDoNotExist');
    },
  );

  itCorpus('finds a new error in a deck whose template has package-level errors', async () => {
    const template = readCorpus('unstructured/science-exploration-1p.pptx');
    expect(
      await newValidatorErrors(
        editPackage(template, () => undefined),
        template,
      ),
    ).toEqual([]);
    const broken = editPart(template, 'ppt/slides/slide1.xml', (x) =>
      x.replace('<p:cSld>', '<p:cSld><p:bogus/>'),
    );
    const errors = await newValidatorErrors(broken, template);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.map((e) => e.path.partUri)).toEqual(errors.map(() => '/ppt/slides/slide1.xml'));
  });
});
