import { strFromU8, strToU8, unzipSync } from 'fflate';
import { expect, it } from 'vitest';
import { corpusFiles, describeCorpus, readCorpus } from '../corpus/corpus.js';
import { editPackage, editPart } from '../decks/package-edit.js';
import {
  checkPackageInvariants,
  checkPackageInvariantsAgainst,
  findPackageViolations,
} from './package-invariants.js';
import { storedEntry, writeZip } from '../decks/zip-writer.js';

const SMALL = readCorpus('python-pptx/shp-freeform.pptx'); // 1 slide, no text
const TEXT = readCorpus('python-pptx/txt-font-props.pptx'); // 5 slides with text boxes
const RT = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

function kinds(bytes: Uint8Array): string[] {
  return [...new Set(findPackageViolations(bytes).map((v) => v.kind))].sort();
}

function addRel(xml: string, rel: string): string {
  return xml.replace('</Relationships>', `${rel}</Relationships>`);
}

describeCorpus('checkPackageInvariants on untouched decks', () => {
  it('passes clean decks from several producers', () => {
    for (const file of [
      'python-pptx/shp-freeform.pptx',
      'python-pptx/txt-font-props.pptx',
      'pptx-automizer/SlideWithMedia.pptx',
      'Open-XML-SDK/Of16-03.pptx',
      'poi/keyframes.pptx',
      'markitdown/test.pptx',
    ]) {
      expect(checkPackageInvariants(readCorpus(file)), file).toEqual([]);
    }
  });

  it('finds exactly the known upstream flaws in the corpus, and nothing else', () => {
    // Real decks that break an invariant themselves (so tests must compare against the template):
    const upstream: Record<string, string[]> = {
      'pptx-automizer/ChartWithExternalData.pptx': ['zip-directory-entry'],
      // Notes slides without a relationship back to their slide (Google Slides and pptx-automizer output).
      'pptx-automizer/GS_Tables_Merged.pptx': ['notes-backlink'],
      'pptx-automizer/threeSlidePres.pptx': ['notes-backlink'],
      'pptx-automizer/twoTextElementPres.pptx': ['notes-backlink'],
      'ShapeCrawler/074 google slides.pptx': ['notes-backlink'],
      'unstructured/fake-power-point-table.pptx': ['notes-backlink'],
      'poi/bug62513.pptx': ['shape-id-duplicate'], // slide17: two shapes with cNvPr id="0"
      'ShapeCrawler/031.pptx': ['xml-malformed'], // ppt/customXML/item*.xml hold the bare text "sld-customData"
    };
    const found: Record<string, string[]> = {};
    for (const f of corpusFiles()) {
      const k = kinds(readCorpus(f));
      if (k.length > 0) found[f.file] = k;
    }
    expect(found).toEqual(upstream);
  });
});

describeCorpus('each invariant fires on a deck broken in exactly that way', () => {
  it('zip-unreadable: a truncated archive', () => {
    expect(kinds(SMALL.slice(0, SMALL.length - 100))).toEqual(['zip-unreadable']);
  });

  it('zip-directory-entry: an explicit folder entry', () => {
    const broken = editPackage(SMALL, (f) => (f['ppt/slides/'] = new Uint8Array()));
    expect(checkPackageInvariants(broken)).toEqual([
      'zip-directory-entry /ppt/slides/: the ZIP has a directory entry',
    ]);
  });

  it('zip-duplicate-entry and part-name-collision: one name twice, and two names differing by case', () => {
    const entries = Object.entries(unzipSync(SMALL)).map(([name, data]) => storedEntry(name, data));
    const thumbnail = entries.find((e) => e.name === 'docProps/thumbnail.jpeg');
    if (!thumbnail) throw new Error('fixture changed');
    const twice = writeZip([...entries, thumbnail]);
    expect(kinds(twice)).toEqual(['zip-duplicate-entry']);
    const byCase = writeZip([...entries, { ...thumbnail, name: 'docProps/Thumbnail.JPEG' }]);
    expect(kinds(byCase)).toContain('part-name-collision');
  });

  it('content-type-missing: a part whose extension has no Default and no Override', () => {
    const broken = editPart(SMALL, '[Content_Types].xml', (x) =>
      x.replace('<Default Extension="jpeg" ContentType="image/jpeg"/>', ''),
    );
    expect(checkPackageInvariants(broken)).toEqual([
      'content-type-missing /docProps/thumbnail.jpeg: no Override or Default content type',
    ]);
  });

  it('content types compare case-insensitively (Override and Default)', () => {
    const upper = editPart(SMALL, '[Content_Types].xml', (x) =>
      x
        .replace('Extension="jpeg"', 'Extension="JPEG"')
        .replace('PartName="/ppt/slides/slide1.xml"', 'PartName="/PPT/Slides/Slide1.xml"'),
    );
    expect(checkPackageInvariants(upper)).toEqual([]);
  });

  it('content-type-override-phantom and -self', () => {
    const broken = editPart(SMALL, '[Content_Types].xml', (x) =>
      x.replace(
        '</Types>',
        '<Override PartName="/ppt/slides/slide99.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slide+xml"/>' +
          '<Override PartName="/[Content_Types].xml" ContentType="application/xml"/></Types>',
      ),
    );
    expect(kinds(broken)).toEqual(['content-type-override-phantom', 'content-type-override-self']);
  });

  it('rel-target-missing: an internal target that is not in the package', () => {
    const broken = editPart(SMALL, 'ppt/slides/_rels/slide1.xml.rels', (x) =>
      addRel(x, `<Relationship Id="rId9" Type="${RT}/image" Target="../media/missing.png"/>`),
    );
    expect(checkPackageInvariants(broken)).toEqual([
      'rel-target-missing /ppt/slides/_rels/slide1.xml.rels: rId9 -> "../media/missing.png" (/ppt/media/missing.png) does not exist',
    ]);
  });

  it('resolves absolute targets and skips External ones', () => {
    const ok = editPart(SMALL, 'ppt/slides/_rels/slide1.xml.rels', (x) =>
      addRel(
        x.replace('Target="../slideLayouts/slideLayout1.xml"', 'Target="/ppt/slideLayouts/slideLayout1.xml"'),
        `<Relationship Id="rId9" Type="${RT}/hyperlink" Target="https://example.com/a?b=1&amp;c=2" TargetMode="External"/>`,
      ),
    );
    expect(checkPackageInvariants(ok)).toEqual([]);
  });

  it('rel-id-duplicate: two relationships with one Id', () => {
    const broken = editPart(SMALL, 'ppt/slides/_rels/slide1.xml.rels', (x) =>
      addRel(
        x,
        `<Relationship Id="rId1" Type="${RT}/hyperlink" Target="https://example.com" TargetMode="External"/>`,
      ),
    );
    expect(kinds(broken)).toEqual(['rel-id-duplicate']);
  });

  it('r-attr-unresolved: any attribute in the relationships namespace, whatever its prefix and local name', () => {
    const broken = editPart(SMALL, 'ppt/slides/slide1.xml', (x) =>
      x
        .replace(
          '<p:cNvPr id="1" name=""/>',
          '<p:cNvPr id="1" name=""><a:hlinkClick r:id=""/><a:hlinkHover r:id="rId7"/></p:cNvPr>',
        )
        .replace('<p:cNvGrpSpPr/>', `<p:cNvGrpSpPr xmlns:rel="${RT}" rel:pict="rId8"/>`),
    );
    const found = checkPackageInvariants(broken);
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(/^r-attr-unresolved \/ppt\/slides\/slide1\.xml: .*a:hlinkHover\/@r:id="rId7"/);
    expect(found[1]).toMatch(/p:cNvGrpSpPr\/@rel:pict="rId8" names no relationship/);
  });

  it('slide-id-out-of-range and slide-id-duplicate', () => {
    const low = editPart(TEXT, 'ppt/presentation.xml', (x) =>
      x.replace('<p:sldId id="256"', '<p:sldId id="255"'),
    );
    expect(kinds(low)).toEqual(['slide-id-out-of-range']);
    const high = editPart(TEXT, 'ppt/presentation.xml', (x) =>
      x.replace('<p:sldId id="256"', '<p:sldId id="2147483648"'),
    );
    expect(kinds(high)).toEqual(['slide-id-out-of-range']);
    const dup = editPart(TEXT, 'ppt/presentation.xml', (x) =>
      x.replace('<p:sldId id="257"', '<p:sldId id="256"'),
    );
    expect(kinds(dup)).toEqual(['slide-id-duplicate']);
  });

  it('master-layout-id-out-of-range and master-layout-id-duplicate', () => {
    const low = editPart(TEXT, 'ppt/presentation.xml', (x) =>
      x.replace('<p:sldMasterId id="2147483648"', '<p:sldMasterId id="2147483647"'),
    );
    expect(kinds(low)).toEqual(['master-layout-id-out-of-range']);
    const dup = editPart(TEXT, 'ppt/slideMasters/slideMaster1.xml', (x) =>
      x.replace('<p:sldLayoutId id="2147483655"', '<p:sldLayoutId id="2147483648"'),
    );
    expect(kinds(dup)).toEqual(['master-layout-id-duplicate']);
  });

  it('shape-id-duplicate: two shapes with one cNvPr id (but not Choice vs Fallback)', () => {
    const dup = editPart(TEXT, 'ppt/slides/slide1.xml', (x) =>
      x.replace('<p:cNvPr id="2" name="TextBox 1"/>', '<p:cNvPr id="1" name="TextBox 1"/>'),
    );
    expect(checkPackageInvariants(dup)).toEqual([
      'shape-id-duplicate /ppt/slides/slide1.xml: p:cNvPr id="1" is used by more than one shape',
    ]);
    const shape = (id: number): string =>
      `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="s"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr/></p:sp>`;
    const ac = (choice: string, fallback: string): string =>
      `<mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice Requires="p14">${choice}</mc:Choice><mc:Fallback>${fallback}</mc:Fallback></mc:AlternateContent>`;
    const alternatives = editPart(SMALL, 'ppt/slides/slide1.xml', (x) =>
      x.replace('</p:spTree>', `${ac(shape(5), shape(5))}</p:spTree>`),
    );
    expect(checkPackageInvariants(alternatives)).toEqual([]);
    const twiceInChoice = editPart(SMALL, 'ppt/slides/slide1.xml', (x) =>
      x.replace('</p:spTree>', `${ac(shape(5) + shape(5), shape(5))}</p:spTree>`),
    );
    expect(kinds(twiceInChoice)).toEqual(['shape-id-duplicate']);
  });

  it('anim-target-missing: p:spTgt and p:bldP naming a shape that is not on the slide', () => {
    const file = readCorpus('pptx-automizer/SlideWithMedia.pptx');
    const spTgt = editPart(file, 'ppt/slides/slide1.xml', (x) =>
      x.replace('<p:spTgt spid="9"/>', '<p:spTgt spid="99"/>'),
    );
    expect(checkPackageInvariants(spTgt)).toEqual([
      'anim-target-missing /ppt/slides/slide1.xml: p:spTgt spid="99" names no shape on this slide',
    ]);
    const bldP = editPart(file, 'ppt/slides/slide1.xml', (x) =>
      x.replace('</p:timing>', '<p:bldLst><p:bldP spid="42" grpId="0"/></p:bldLst></p:timing>'),
    );
    expect(checkPackageInvariants(bldP)).toEqual([
      'anim-target-missing /ppt/slides/slide1.xml: p:bldP spid="42" names no shape on this slide',
    ]);
  });

  it('txbody-empty: a text body without a:p', () => {
    const broken = editPart(TEXT, 'ppt/slides/slide1.xml', (x) => x.replace(/<a:p>[\s\S]*<\/a:p>/, ''));
    expect(kinds(broken)).toEqual(['txbody-empty']);
  });

  it('ignorable-prefix-undeclared: mc:Ignorable naming an undeclared prefix', () => {
    const broken = editPart(SMALL, 'ppt/slides/slide1.xml', (x) =>
      x.replace(
        '<p:sld ',
        '<p:sld xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="a zz" ',
      ),
    );
    expect(checkPackageInvariants(broken)).toEqual([
      "ignorable-prefix-undeclared /ppt/slides/slide1.xml: mc:Ignorable names prefix 'zz' that is not declared on <p:sld>",
    ]);
  });

  it('slide-layout-rel-count: a slide with no layout, and one with two', () => {
    const none = editPart(SMALL, 'ppt/slides/_rels/slide1.xml.rels', (x) =>
      x.replace(/<Relationship [^>]*slideLayout[^>]*\/>/, ''),
    );
    expect(kinds(none)).toEqual(['slide-layout-rel-count']);
    const two = editPart(SMALL, 'ppt/slides/_rels/slide1.xml.rels', (x) =>
      addRel(
        x,
        `<Relationship Id="rId5" Type="${RT}/slideLayout" Target="../slideLayouts/slideLayout1.xml"/>`,
      ),
    );
    expect(checkPackageInvariants(two)).toEqual([
      'slide-layout-rel-count /ppt/slides/slide1.xml: has 2 slideLayout relationships, expected 1',
    ]);
  });

  it('part-unreachable: a typed part nothing points at', () => {
    const broken = editPackage(SMALL, (f) => (f['ppt/media/orphan.jpeg'] = strToU8('x')));
    expect(checkPackageInvariants(broken)).toEqual([
      'part-unreachable /ppt/media/orphan.jpeg: no relationship chain from /_rels/.rels reaches it',
    ]);
  });

  it('attr-not-integer: fractional EMU offsets, extents and font sizes', () => {
    const broken = editPart(TEXT, 'ppt/slides/slide1.xml', (x) =>
      x
        .replace('<a:off x="2718725"', '<a:off x="2718725.5"')
        .replace('cy="369332"', 'cy="-324900.00000000006"')
        .replace('<a:rPr lang="en-US" i="1"', '<a:rPr lang="en-US" sz="12.5" i="1"'),
    );
    expect(findPackageViolations(broken).map((v) => v.message)).toEqual([
      'p:sld/p:cSld/p:spTree/p:sp/p:spPr/a:xfrm/a:off/@x="2718725.5" is not an integer',
      'p:sld/p:cSld/p:spTree/p:sp/p:spPr/a:xfrm/a:ext/@cy="-324900.00000000006" is not an integer',
      'p:sld/p:cSld/p:spTree/p:sp/p:txBody/a:p/a:r/a:rPr/@sz="12.5" is not an integer',
    ]);
  });

  it('notes-backlink: a notes slide that does not point back at its slide', () => {
    const file = readCorpus('pptx-automizer/SlideWithNotes.pptx');
    expect(checkPackageInvariants(file)).toEqual([]);
    const broken = editPart(file, 'ppt/notesSlides/_rels/notesSlide1.xml.rels', (x) =>
      x.replace(/<Relationship [^>]*relationships\/slide"[^>]*\/>/, ''),
    );
    expect(kinds(broken)).toEqual(['notes-backlink']);
  });

  it('xml-malformed and xml-doctype', () => {
    const malformed = editPart(SMALL, 'ppt/slides/slide1.xml', (x) => x.replace('</p:spTree>', ''));
    expect(kinds(malformed)).toEqual(['xml-malformed']);
    const doctype = editPart(SMALL, 'ppt/slides/slide1.xml', (x) =>
      x.replace('<p:sld ', '<!DOCTYPE p:sld [<!ENTITY x "y">]><p:sld '),
    );
    expect(kinds(doctype)).toEqual(['xml-doctype']);
  });
});

describeCorpus('checkPackageInvariantsAgainst', () => {
  const template = readCorpus('pptx-automizer/threeSlidePres.pptx'); // its notes slides lack back-links upstream

  it('ignores a flaw the template already has, also on renamed parts', () => {
    // Rename notesSlide3.xml to notesSlide7.xml, as cloning does.
    const renamed = editPackage(template, (f) => {
      const move = (from: string, to: string): void => {
        const data = f[from];
        if (!data) throw new Error(`no ${from}`);
        f[to] = data;
        delete f[from];
      };
      move('ppt/notesSlides/notesSlide3.xml', 'ppt/notesSlides/notesSlide7.xml');
      move('ppt/notesSlides/_rels/notesSlide3.xml.rels', 'ppt/notesSlides/_rels/notesSlide7.xml.rels');
      for (const item of ['ppt/slides/_rels/slide3.xml.rels', '[Content_Types].xml']) {
        f[item] = strToU8(
          strFromU8(f[item] ?? new Uint8Array()).replace('notesSlide3.xml', 'notesSlide7.xml'),
        );
      }
    });
    const own = checkPackageInvariants(renamed);
    expect(own).toContain(
      'notes-backlink /ppt/notesSlides/notesSlide7.xml: no slide it points at has it as its notes slide',
    );
    expect(checkPackageInvariantsAgainst(renamed, template)).toEqual([]);
  });

  it('compares with the readable entries of a template that has a corrupt one', () => {
    // Found by the template fuzzer (seed -315502270): a flipped byte renamed an entry whose data was corrupt too.
    const corrupt = writeZip(
      Object.entries(unzipSync(template)).map(([name, data]) =>
        name === 'ppt/theme/theme2.xml'
          ? { ...storedEntry(name, data), method: 8 as const, data: new Uint8Array([0xff, 0xff, 0xff]) }
          : storedEntry(name, data),
      ),
    );
    expect(checkPackageInvariants(corrupt)).toEqual([expect.stringMatching(/^zip-unreadable/)]);
    const withoutIt = editPackage(template, (f) => {
      delete f['ppt/theme/theme2.xml'];
    });
    const missing = checkPackageInvariants(withoutIt).filter((p) => p.startsWith('rel-target-missing'));
    expect(missing).toHaveLength(1);
    // The template's readable entries lack the part too: the same flaw, not a new one.
    expect(checkPackageInvariantsAgainst(withoutIt, corrupt)).toEqual([]);
    expect(checkPackageInvariantsAgainst(withoutIt, template)).toEqual(expect.arrayContaining(missing));
  });

  it('still reports a new kind of flaw', () => {
    const broken = editPart(template, 'ppt/presentation.xml', (x) =>
      x.replace(/<p:sldId id="\d+"/, '<p:sldId id="1"'),
    );
    expect(checkPackageInvariantsAgainst(broken, template)).toEqual([
      'slide-id-out-of-range /ppt/presentation.xml: p:sldId id="1" is not in [256, 2^31)',
    ]);
  });
});

/**
 * Swaps two slides' part names, with their .rels parts and every relationship to them, as a generator that
 * reorders and renames slides does: the content of slide `a` is then found at slide `b`'s name.
 */
function swapSlides(deck: Uint8Array, a: number, b: number): Uint8Array {
  return editPackage(deck, (files) => {
    for (const name of [
      (n: number) => `ppt/slides/slide${n}.xml`,
      (n: number) => `ppt/slides/_rels/slide${n}.xml.rels`,
    ]) {
      const [first, second] = [files[name(a)], files[name(b)]];
      if (!first || !second) throw new Error(`no ${name(a)} or ${name(b)}`);
      [files[name(a)], files[name(b)]] = [second, first];
    }
    const target = new RegExp(`(Target="(?:[^"]*/)?)slide(${a}|${b})\\.xml"`, 'g');
    for (const name of Object.keys(files).filter((n) => n.endsWith('.rels'))) {
      const xml = strFromU8(files[name]!);
      const swapped = xml.replace(
        target,
        (_m, head: string, n: string) => `${head}slide${n === String(a) ? b : a}.xml"`,
      );
      if (swapped !== xml) files[name] = strToU8(swapped);
    }
  });
}

describeCorpus('checkPackageInvariantsAgainst compares each part with the template part it came from', () => {
  // Slide 17 has three shapes with cNvPr id="0" upstream: two shape-id-duplicate reports, on that slide only.
  const template = readCorpus('poi/bug62513.pptx');
  /** Gives the slide's second named shape the first one's id; returns the deck and the id now shared. */
  const duplicateId = (deck: Uint8Array, part: string): [Uint8Array, string] => {
    let shared = '';
    const broken = editPart(deck, part, (x) => {
      const ids = [...x.matchAll(/<p:cNvPr id="(\d+)" name="[^"]+"/g)].map((m) => m[1]!);
      shared = ids[0]!;
      return x.replace(`<p:cNvPr id="${ids[1]}" `, `<p:cNvPr id="${shared}" `);
    });
    return [broken, shared];
  };

  it('forgives the flaw where the flawed slide went, however it was renamed', () => {
    expect(checkPackageInvariants(template)).toEqual([
      'shape-id-duplicate /ppt/slides/slide17.xml: p:cNvPr id="0" is used by more than one shape',
      'shape-id-duplicate /ppt/slides/slide17.xml: p:cNvPr id="0" is used by more than one shape',
    ]);
    const swapped = swapSlides(template, 17, 2);
    expect(checkPackageInvariants(swapped).map((v) => v.split(':')[0])).toEqual([
      'shape-id-duplicate /ppt/slides/slide2.xml',
      'shape-id-duplicate /ppt/slides/slide2.xml',
    ]);
    expect(checkPackageInvariantsAgainst(swapped, template)).toEqual([]);
  });

  it("reports the same kind of flaw on any other slide, also one that now has the flawed slide's name", () => {
    const swapped = swapSlides(template, 17, 2);
    for (const part of ['ppt/slides/slide17.xml', 'ppt/slides/slide5.xml']) {
      const [broken, id] = duplicateId(swapped, part);
      expect(checkPackageInvariantsAgainst(broken, template), part).toEqual([
        `shape-id-duplicate /${part}: p:cNvPr id="${id}" is used by more than one shape`,
      ]);
    }
  });

  it('reports one more of the flaw on the flawed slide itself', () => {
    const broken = editPart(template, 'ppt/slides/slide17.xml', (x) =>
      x.replace(
        '<p:cNvPr id="3" name="Content Placeholder 2"/>',
        '<p:cNvPr id="0" name="Content Placeholder 2"/>',
      ),
    );
    expect(checkPackageInvariantsAgainst(broken, template)).toEqual([
      'shape-id-duplicate /ppt/slides/slide17.xml: p:cNvPr id="0" is used by more than one shape',
    ]);
  });
});
