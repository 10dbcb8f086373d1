/**
 * What a filled chart keeps of its template, written back: a sheet named quoted in one formula and bare in
 * another is one sheet (its workbook gets the new data), and a chart that showed no title shows none after a
 * fill, unless the payload gives one (the automatic title: ECMA-376 Part 1 §21.2.2.7).
 */
import { describe, expect, it } from 'vitest';
import { chartDeck } from '../../support/decks/chart-templates.js';
import {
  packageFiles,
  readChartSeries,
  textOf,
  workbookItemOf,
  workbookReader,
} from '../../support/readers/chart-reading.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { editPart } from '../../support/decks/package-edit.js';
import { run } from '../../support/decks/deck.js';

const CHART = 'ppt/charts/chart1.xml';

function fillChart(template: Uint8Array, content: unknown, settings?: unknown) {
  return run(template, {
    slides: [{ slide_index: 0, shapes: [{ name: 'Chart 5', content, ...(settings ? { settings } : {}) }] }],
  });
}

/** The output's only chart part's text. */
function chartXml(bytes: Uint8Array): string {
  const files = packageFiles(bytes);
  const item = Object.keys(files).find((f) => /^ppt\/charts\/chart\d+\.xml$/.test(f))!;
  return textOf(files, item);
}

describe('chart formulas name sheets as references', () => {
  it("fills the workbook when categories say 'Sheet1' and series names say Sheet1", async () => {
    const template = editPart(chartDeck(), CHART, (xml) =>
      xml.replace(/<c:f>Sheet1!\$A\$2:\$A\$5<\/c:f>/g, "<c:f>'Sheet1'!$A$2:$A$5</c:f>"),
    );
    expect(textOf(packageFiles(template), CHART)).toMatch(/Sheet1!\$B\$1.*'Sheet1'!\$A\$2/s);
    const content = {
      categories: ['North', 'South'],
      series: [
        { name: 'Plan', values: [7, 8] },
        { name: 'Actual', values: [6, 9] },
      ],
    };
    const result = fillChart(template, content);
    expect(result.warnings).toEqual([]);
    const files = packageFiles(result.bytes);
    const chart = Object.keys(files).find((f) => /^ppt\/charts\/chart\d+\.xml$/.test(f))!;
    const workbook = await workbookReader(files[workbookItemOf(files, chart)!]!);
    const series = readChartSeries(textOf(files, chart));
    expect(series.map((s) => s.name)).toEqual(['Plan', 'Actual']);
    for (const s of series) {
      expect(workbook.cells(s.nameFormula!)).toEqual([s.name]);
      expect(workbook.cells(s.categoryFormula!)).toEqual(['North', 'South']);
      expect(workbook.cells(s.valueFormula!)).toEqual(content.series.find((c) => c.name === s.name)!.values);
    }
    await expectValidPptx(result.bytes, template);
  });
});

describe('a filled chart shows a title only where the template or the payload did', () => {
  // The template chart: one series without a name, no title, no c:autoTitleDeleted: nothing above the plot.
  const untitled = editPart(chartDeck(), CHART, (xml) =>
    xml
      .replace('<c:autoTitleDeleted val="1"/>', '')
      .replace(/<c:ser><c:idx val="[12]"\/>.*?<\/c:ser>/gs, '')
      .replace(/<c:tx>.*?<\/c:tx>/s, ''),
  );
  const one = { categories: ['North', 'South'], series: [{ name: 'Plan', values: [7, 8] }] };

  it('turns the automatic title off when a named series replaces the unnamed one', async () => {
    const before = textOf(packageFiles(untitled), CHART);
    expect(before).not.toMatch(/<c:title>|autoTitleDeleted|<c:tx>/);
    expect(before.match(/<c:ser>/g)).toHaveLength(1);
    const result = fillChart(untitled, one);
    const xml = chartXml(result.bytes);
    expect(xml).toContain('<c:v>Plan</c:v>');
    expect(xml).not.toContain('<c:title>');
    expect(xml).toMatch(/<c:chart><c:autoTitleDeleted val="1"\/>/);
    await expectValidPptx(result.bytes, untitled);
  });

  it('shows the title the payload sets', () => {
    const xml = chartXml(fillChart(untitled, one, { title: 'Sales' }).bytes);
    expect(xml).toMatch(/<c:title>.*<a:t>Sales<\/a:t>.*<\/c:title><c:autoTitleDeleted val="0"\/>/s);
  });

  it('leaves a chart that showed its series name as its title as it was', () => {
    const named = editPart(untitled, CHART, (xml) =>
      xml.replace(
        '<c:idx val="0"/><c:order val="0"/>',
        '<c:idx val="0"/><c:order val="0"/><c:tx><c:v>Old</c:v></c:tx>',
      ),
    );
    const xml = chartXml(fillChart(named, one).bytes);
    expect(xml).not.toMatch(/autoTitleDeleted|<c:title>/);
  });
});
