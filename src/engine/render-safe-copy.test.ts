/**
 * The render-safe copy of a deck, read back part by part: each attack class of linking-decks.ts loses the
 * relationship that reached outside (and only that), a clickable hyperlink stays, a field of type "file" loses
 * its type, a picture past the pixel budget is refused, and a deck with nothing to neutralise is passed on as
 * it is. The rendering of such decks, with a real LibreOffice, is test/rendering/render-isolation.test.ts.
 */
import { strFromU8, strToU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { expectValidPptx, newPptxProblems } from '../../test/support/checks/expect-valid-pptx.js';
import { layoutsTemplate } from '../../test/support/decks/layouts-template.js';
import {
  attacks,
  CLICKABLE_URL,
  linkingDeck,
  type LinkTargets,
} from '../../test/support/decks/linking-decks.js';
import { editPackage, editPart } from '../../test/support/decks/package-edit.js';
import { previewDeck, slideWord } from '../../test/support/decks/preview-decks.js';
import { png, pngClaiming } from '../../test/support/decks/test-images.js';
import { EngineError } from './errors.js';
import { renderSafeCopy } from './render-safe-copy.js';

const TARGETS: LinkTargets = {
  canary: 'http://127.0.0.1:9',
  localImage: '/srv/deckforge/secret.png',
  localText: '/srv/deckforge/secret.csv',
  secretVariable: 'DATABASE_URL',
};
const LIMITS = { maxPixels: 50_000_000 };

/** Every part of `bytes`, as text, by item name. */
function parts(bytes: Uint8Array): Record<string, string> {
  return Object.fromEntries(Object.entries(unzipSync(bytes)).map(([name, data]) => [name, strFromU8(data)]));
}

/** The slide part and its relationships' part of the slide titled slideWord(i). */
function slideOf(files: Record<string, string>, i: number): { xml: string; rels: string } {
  const name = Object.keys(files).find(
    (item) => /^ppt\/slides\/[^/]+\.xml$/.test(item) && files[item]?.includes(`>${slideWord(i)}<`),
  ) as string;
  const rels = `ppt/slides/_rels/${name.slice('ppt/slides/'.length)}.rels`;
  return { xml: files[name] as string, rels: files[rels] as string };
}

describe('render-safe copy', () => {
  it('drops every relationship that reaches outside, one attack class per slide, and keeps the rest', async () => {
    const deck = linkingDeck(TARGETS, await png(40, 30));
    const copy = renderSafeCopy(deck, LIMITS);
    const before = parts(deck);
    const after = parts(copy.bytes);
    const names = Object.keys(attacks(TARGETS));
    names.forEach((name, i) => {
      // Each slide had its attack's relationships (the field has none); the copy has none that leaves.
      if (name !== 'field of type file') expect(slideOf(before, i).rels, name).toMatch(/rIdAttack1/);
      expect(slideOf(after, i).rels, name).not.toMatch(/TargetMode="External"/);
      expect(slideOf(after, i).rels, name).toMatch(/slideLayout/);
      // The slide itself is as it was (for the field, but its type).
      if (name !== 'field of type file') expect(slideOf(after, i).xml, name).toBe(slideOf(before, i).xml);
    });
    // Embedded fallbacks stay (the OLE objects' and the video's poster): internal, an image.
    expect(slideOf(after, names.indexOf('linked video')).rels).toMatch(/Target="..\/media\/fallback.png"/);
    // The field shows what it saved, not the file's path; the macro project is not reachable.
    const field = slideOf(after, names.indexOf('field of type file')).xml;
    expect(field).toContain(
      '<a:fld id="{5C2E3A51-2D1A-4B7E-9F3C-1A2B3C4D5E6F}"><a:t>SavedFieldText</a:t></a:fld>',
    );
    expect(after['ppt/_rels/presentation.xml.rels']).not.toMatch(/vbaProject/);
    // The clickable hyperlink of the last slide stays, as a link.
    expect(slideOf(after, names.length).rels).toContain(`Target="${CLICKABLE_URL}" TargetMode="External"`);
    // One relationship per attack slide but the field's, two for the expansion link (a picture and a
    // hyperlink), the field's type, and the macro project's relationship.
    expect(copy.neutralised).toBe(names.length - 1 + 1 + 1 + 1);
    // The copy is only ever handed to LibreOffice. Against the deck, its only new problems are the r:ids left
    // pointing at the dropped relationships, and the macro project no relationship reaches any more.
    const problems = await newPptxProblems(copy.bytes, deck);
    expect(problems.length).toBeGreaterThan(0);
    for (const problem of problems) {
      expect(problem).toMatch(
        /^(invariant: r-attr-unresolved .*"rIdAttack\d" names no relationship of this part|validator: Sem_InvalidRelationshipId .*The relationship 'rIdAttack\d' referenced by attribute .* does not exist\.|invariant: part-unreachable \/ppt\/vbaProject\.bin: .*)$/,
      );
    }
  });

  it('passes a deck with nothing external on as it is, byte for byte', async () => {
    const deck = previewDeck(2);
    await expectValidPptx(deck, layoutsTemplate());
    const copy = renderSafeCopy(deck, LIMITS);
    expect(copy.neutralised).toBe(0);
    expect(copy.bytes).toBe(deck);
  });

  it('is not fooled by entities, case or quotes in what LibreOffice decodes', () => {
    const deck = editPackage(previewDeck(1), (files) => {
      const slide = Object.keys(files).find((name) => /^ppt\/slides\/[^/]+\.xml$/.test(name)) as string;
      const rels = `ppt/slides/_rels/${slide.slice('ppt/slides/'.length)}.rels`;
      files[slide] = strToU8(
        strFromU8(files[slide] as Uint8Array).replace(
          '</p:spTree>',
          // A hyperlink's id given to a picture by an entity; a field whose type is spelled with one, and a
          // quoted '>' before it.
          '<p:pic><p:nvPicPr><p:cNvPr id="9" name="p"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr><p:blipFill>' +
            '<a:blip r:link="&#114;IdLink"/></p:blipFill><p:spPr/></p:pic>' +
            '<p:sp><p:nvSpPr><p:cNvPr id="10" name="t"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr/><p:txBody>' +
            "<a:bodyPr/><a:p><a:fld id='{0}' tag='a>b' type='&#102;ile2'><a:t>x</a:t></a:fld></a:p></p:txBody></p:sp></p:spTree>",
        ),
      );
      files[rels] = strToU8(
        strFromU8(files[rels] as Uint8Array).replace(
          '</Relationships>',
          '<Relationship Id="rIdLink" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" ' +
            'Target="https://127.0.0.1/picture.png" TargetMode="External"/>' +
            '<Relationship Id="rIdUri" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" ' +
            'Target="file:///etc/passwd"/>' +
            '<Relationship Id="rIdMode" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" ' +
            'Target="http://127.0.0.1/x.png" TargetMode="external"/></Relationships>',
        ),
      );
    });
    const after = parts(renderSafeCopy(deck, LIMITS).bytes);
    const { xml, rels } = slideOf(after, 0);
    expect(rels).not.toMatch(/rIdLink|rIdUri|rIdMode/);
    expect(xml).toContain("<a:fld id='{0}' tag='a>b'><a:t>x</a:t></a:fld>");
  });

  it('refuses a picture past the pixel budget from its header, naming the part', () => {
    const deck = editPackage(previewDeck(1), (files) => {
      files['ppt/media/huge.png'] = pngClaiming(20_000, 20_000);
    });
    expect(() => renderSafeCopy(deck, LIMITS)).toThrow(EngineError);
    expect(() => renderSafeCopy(deck, LIMITS)).toThrow(
      '/ppt/media/huge.png: the picture is 20000 × 20000 pixels, over the limit of 50,000,000 pixels for one image',
    );
    expect(renderSafeCopy(deck, { maxPixels: 400_000_000 }).neutralised).toBe(0);
  });

  it('leaves the template it came from unchanged (what a template links to is its owner’s)', () => {
    const template = layoutsTemplate();
    const linked = editPart(template, 'ppt/slideLayouts/_rels/slideLayout1.xml.rels', (xml) =>
      xml.replace(
        '</Relationships>',
        '<Relationship Id="rIdX" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="http://127.0.0.1/x.png" TargetMode="External"/></Relationships>',
      ),
    );
    const copyOf = Uint8Array.from(linked);
    expect(renderSafeCopy(linked, LIMITS).neutralised).toBe(1);
    expect(linked).toEqual(copyOf);
  });
});
