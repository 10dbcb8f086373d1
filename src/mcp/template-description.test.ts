import { describe, expect, it } from 'vitest';
import { expectValidPptx } from '../../test/support/checks/expect-valid-pptx.js';
import { GENERATED_CHARTS, generatedChartsDeck } from '../../test/support/decks/chart-templates.js';
import { oneSlideDeck } from '../../test/support/decks/one-slide-deck.js';
import { generate, inspect } from '../engine/index.js';
import { deckProblems } from './deck-checks.js';
import { describeTemplate } from './template-description.js';

const summary = { id: 'tpl_1', name: 't', version: 1, slides: 1 };
const box = (id: number, name: string, y: number): string =>
  `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="${name}"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>` +
  `<p:spPr><a:xfrm><a:off x="457200" y="${y}"/><a:ext cx="4572000" cy="914400"/></a:xfrm></p:spPr>` +
  `<p:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US"/><a:t>old ${id}</a:t></a:r></a:p></p:txBody></p:sp>`;

describe('describe_template', () => {
  it('gives each shape the target that reaches it alone: a shared name is reached by shapeId, and generation fills that shape', async () => {
    const template = oneSlideDeck({
      shapes: box(4, 'Note', 914400) + box(5, 'Note', 2743200) + box(6, 'Other', 4572000),
    });
    const shapes = describeTemplate(summary, inspect(template)).slides[0]!.shapes;
    expect(shapes.map((s) => [s.id, s.target])).toEqual([
      [4, { shapeId: 4 }],
      [5, { shapeId: 5 }],
      [6, { name: 'Other' }],
    ]);
    const second = shapes[1]!;
    const jsonData = {
      presentation: {
        template: 't.pptx',
        slides: [{ slide_index: 0, shapes: [{ ...second.target, content: 'second' }] }],
      },
    };
    const result = generate({ payload: jsonData, files: new Map([['t.pptx', template]]) });
    expect(result.warnings).toEqual([]);
    const texts = inspect(result.bytes).slides[0]!.shapes.map((s) => [s.id, s.text]);
    expect(texts).toEqual([
      [4, 'old 4'],
      [5, 'second'],
      [6, 'old 6'],
    ]);
    await expectValidPptx(result.bytes, template);
    // The dry run's own checks find a shape by its shapeId too: text past its capacity is named.
    const long = { ...second.target, content: 'x'.repeat(second.capacity!.chars * 4) };
    const problems = deckProblems(
      { presentation: { template: 't', slides: [{ slide_index: 0, shapes: [long] }] } },
      describeTemplate(summary, inspect(template)),
    );
    expect(problems.map((p) => p.code)).toEqual(['text_over_capacity']);
  });

  it('says the form of each chart and the fields each of its series takes: a bubble chart wants a size', () => {
    const { bytes } = generatedChartsDeck({
      'scatter smooth lines': GENERATED_CHARTS['scatter smooth lines']!,
      'bubble 3-D': GENERATED_CHARTS['bubble 3-D']!,
    });
    const charts = describeTemplate(summary, inspect(bytes)).slides.map((slide) => {
      const chart = slide.shapes.find((s) => s.kind === 'chart')!.chart!;
      return [chart.types, chart.form, chart.series_fields];
    });
    expect(charts).toEqual([
      [['bar (column, clustered)'], 'categories', ['name', 'values']],
      [['scatter (smoothMarker)'], 'xy', ['name', 'x', 'y']],
      [['bubble'], 'bubble', ['name', 'x', 'y', 'size']],
    ]);
  });
});
