/**
 * `inspect` gives every shape its box on the slide in EMU (what the console's inspector draws): its own
 * transform, else its layout's or master's placeholder, carried through scaled groups. On the project's own
 * layouts template (test/support/decks/layouts-template.ts), so it runs without the corpus.
 */
import { describe, expect, it } from 'vitest';
import { inspect, type InspectResult } from '../../src/engine/index.js';
import { layoutsTemplate } from '../support/decks/layouts-template.js';
import { editPart } from '../support/decks/package-edit.js';

const box = (x: number, y: number, cx: number, cy: number) => ({ x, y, cx, cy });

function shapeBox(result: InspectResult, slide: number, name: string) {
  const shape = result.slides[slide]?.shapes.find((s) => s.name === name);
  if (!shape) throw new Error(`no shape "${name}" on slide ${slide}`);
  return shape.box;
}

describe('inspect: shape boxes', () => {
  const plain = inspect(layoutsTemplate());

  it('a shape with its own transform is where that transform says, and the slide size is given', () => {
    expect(plain.slideSize).toEqual({ cx: 9144000, cy: 6858000 });
    expect(shapeBox(plain, 6, 'TextBox 3')).toEqual(box(457200, 1600200, 8229600, 369332));
    expect(shapeBox(plain, 9, 'Picture 11')).toEqual(box(5029200, 4572000, 1828800, 914400));
  });

  it('a placeholder without a transform takes its layout placeholder’s, or the master’s when the layout has none', () => {
    // Slide 0's title (ctrTitle) and subtitle: positioned by the Title Slide layout.
    expect(shapeBox(plain, 0, 'Title 1')).toEqual(box(685800, 2130425, 7772400, 1470025));
    expect(shapeBox(plain, 0, 'Subtitle 2')).toEqual(box(1371600, 3886200, 6400800, 1752600));
    // Slide 1's title: the Title and Content layout gives no position, the master's title does.
    expect(shapeBox(plain, 1, 'Title 1')).toEqual(box(457200, 274638, 8229600, 1143000));
    // A picture placeholder by idx: the box and the picture frame agree.
    const picture = plain.slides[8]?.shapes.find((s) => s.name === 'Picture Placeholder 4');
    expect(picture?.box).toEqual(box(1792288, 612775, 5486400, 4114800));
    expect(picture?.frame).toEqual({ widthPx: 576, heightPx: 432, aspectRatio: 1.333 });
    // The footers of slide 9 by idx 10, 11, 12.
    expect(shapeBox(plain, 9, 'Footer Placeholder 7')).toEqual(box(3124200, 6356350, 2895600, 365125));
  });

  it('layout shapes get boxes too, inheriting from the master', () => {
    const layout = plain.layouts.find((l) => l.name === 'Title and Content');
    const title = layout?.shapes.find((s) => s.name === 'Title 1');
    expect(title?.box).toEqual(box(457200, 274638, 8229600, 1143000));
    expect(plain.layouts.every((l) => l.shapes.every((s) => s.box !== null))).toBe(true);
  });

  it('a shape in a scaled group, and in a group inside it, lands where the groups put it', () => {
    // Group 6 maps its child space (0,0)-(4000,4000) onto 8000000 × 1200000 EMU at (457200, 2286000):
    // x scale 2000, y scale 300. A second group inside it (identity in its own child space) holds a text box.
    const bytes = editPart(layoutsTemplate(), 'ppt/slides/slide7.xml', (xml) =>
      xml
        .replace(
          '<a:off x="457200" y="2286000"/><a:ext cx="8229600" cy="1200329"/><a:chOff x="457200" y="2286000"/><a:chExt cx="8229600" cy="1200329"/>',
          '<a:off x="457200" y="2286000"/><a:ext cx="8000000" cy="1200000"/><a:chOff x="0" y="0"/><a:chExt cx="4000" cy="4000"/>',
        )
        .replace(
          '<a:off x="457200" y="2286000"/><a:ext cx="8229600" cy="1200329"/></a:xfrm>',
          '<a:off x="1000" y="2000"/><a:ext cx="2000" cy="1000"/></a:xfrm>',
        )
        .replace(
          '</p:grpSp>',
          '<p:grpSp><p:nvGrpSpPr><p:cNvPr id="7" name="Inner Group"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>' +
            '<p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="1000" cy="1000"/><a:chOff x="0" y="0"/>' +
            '<a:chExt cx="2000" cy="2000"/></a:xfrm></p:grpSpPr>' +
            '<p:sp><p:nvSpPr><p:cNvPr id="8" name="Deep Box"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>' +
            '<p:spPr><a:xfrm><a:off x="200" y="400"/><a:ext cx="1000" cy="600"/></a:xfrm></p:spPr>' +
            '<p:txBody><a:bodyPr/><a:p><a:r><a:t>deep</a:t></a:r></a:p></p:txBody></p:sp></p:grpSp></p:grpSp>',
        ),
    );
    const result = inspect(bytes);
    expect(shapeBox(result, 6, 'Group 6')).toEqual(box(457200, 2286000, 8000000, 1200000));
    expect(shapeBox(result, 6, 'TextBox 4')).toEqual(
      box(457200 + 1000 * 2000, 2286000 + 2000 * 300, 4000000, 300000),
    );
    // Inner group: child (0,0)-(2000,2000) onto (0,0)-(1000,1000) in Group 6's child space: half scale.
    // Deep Box at (200,400) 1000×600 → (100,200) 500×300 in Group 6's space → on the slide:
    expect(shapeBox(result, 6, 'Inner Group')).toEqual(box(457200, 2286000, 2000000, 300000));
    expect(shapeBox(result, 6, 'Deep Box')).toEqual(
      box(457200 + 100 * 2000, 2286000 + 200 * 300, 1000000, 90000),
    );
    expect(result.slides[6]?.shapes.find((s) => s.name === 'Deep Box')?.group).toBe('Inner Group');
  });

  it('is null only when nothing gives a position', () => {
    // TextBox 3 loses its transform; it is no placeholder, so nothing else can place it.
    const bytes = editPart(layoutsTemplate(), 'ppt/slides/slide7.xml', (xml) =>
      xml.replace('<a:off x="457200" y="1600200"/><a:ext cx="8229600" cy="369332"/>', ''),
    );
    const result = inspect(bytes);
    expect(shapeBox(result, 6, 'TextBox 3')).toBeNull();
    expect(shapeBox(result, 6, 'Title 1')).toEqual(box(457200, 274638, 8229600, 1143000));
  });
});
