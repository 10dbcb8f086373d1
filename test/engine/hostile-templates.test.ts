/**
 * Templates and payloads built to hurt: XML nested far beyond any real part, relationships whose
 * Target leaves the package, hyperlinks that would run code when clicked. Each is refused with a typed error
 * naming where, or (relationships) left out with a warning; nothing overflows a stack.
 */
import { describe, expect, it } from 'vitest';
import { inspect } from '../../src/engine/index.js';
import { engineErrorOf } from '../support/checks/engine-error.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { editPackage, editPart } from '../support/decks/package-edit.js';
import { sourcePartOfRels, targetEscape } from '../../src/engine/package/relationships.js';
import { parts, run, SAMPLE } from '../support/decks/deck.js';

/** Slide 2 of the sample with `depth` unknown elements nested inside its shape tree. */
function deeplyNested(depth: number): Uint8Array {
  const open = `<x:n xmlns:x="urn:deckforge:test">${'<x:n>'.repeat(depth - 1)}`;
  return editPart(SAMPLE, 'ppt/slides/slide2.xml', (xml) =>
    xml.replace('</p:spTree>', `${open}${'</x:n>'.repeat(depth)}</p:spTree>`),
  );
}

describe('deeply nested XML in a template', () => {
  const deep = deeplyNested(90_000);

  it.each([
    ['filled (parsed and cloned)', [{ name: 'Title', content: 'Changed' }]],
    ['unchanged (checked, copied as it is)', []],
  ])('a slide nested 90 000 levels deep is refused naming the part, when %s', (_case, shapes) => {
    const error = engineErrorOf(() => run(deep, { slides: [{ slide_index: 1, shapes }] }));
    expect(error.code).toBe('LIMIT_EXCEEDED');
    expect(error.path).toBe('/ppt/slides/slide2.xml');
    expect(error.message).toMatch(/nest deeper than 256 levels/);
  });

  it('inspect refuses it the same way', () => {
    const error = engineErrorOf(() => inspect(deep));
    expect(error).toMatchObject({ code: 'LIMIT_EXCEEDED', path: '/ppt/slides/slide2.xml' });
  });

  it('nesting within the limit is cloned, filled and written back whole', async () => {
    const template = deeplyNested(250);
    const output = run(template, {
      slides: [
        { slide_index: 1, shapes: [{ name: 'Title', content: 'Copy one' }] },
        { slide_index: 1, shapes: [{ name: 'Title', content: 'Copy two' }] },
      ],
    });
    const slides = [...parts(output.bytes)].filter(([name]) => /^ppt\/slides\/slide\d+\.xml$/.test(name));
    expect(slides).toHaveLength(2);
    for (const [, xml] of slides) expect(xml.split('<x:n').length - 1).toBe(250);
    await expectValidPptx(output.bytes, template);
  });
});

describe('relationships that point outside the package', () => {
  const IMAGE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/image';
  const OLE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/oleObject';
  const LINK = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink';
  const outside = [
    ['rId91', IMAGE, '../../../etc/passwd'],
    ['rId92', OLE, 'file:///etc/shadow'],
    ['rId93', IMAGE, '%2e%2e/%2e%2e/%2e%2e/%2e%2e/root/.ssh/id_rsa'],
    ['rId94', LINK, '../../../../etc/hosts'], // named by r:id from the slide's XML
  ] as const;
  const added = outside.map(
    ([id, type, target]) => `<Relationship Id="${id}" Type="${type}" Target="${target}"/>`,
  );

  /** The sample with the relationships above added to slide 2 (one used by a link) and to the master. */
  function template(): Uint8Array {
    const withRels = editPart(SAMPLE, 'ppt/slides/_rels/slide2.xml.rels', (xml) =>
      xml.replace('</Relationships>', `${added.join('')}</Relationships>`),
    );
    const withLink = editPart(withRels, 'ppt/slides/slide2.xml', (xml) =>
      xml.replace(
        '<a:rPr lang="en-US" dirty="0"/>',
        '<a:rPr lang="en-US" dirty="0"><a:hlinkClick r:id="rId94"/></a:rPr>',
      ),
    );
    return editPart(withLink, 'ppt/slideMasters/_rels/slideMaster1.xml.rels', (xml) =>
      xml.replace('</Relationships>', `${added[0]}</Relationships>`),
    );
  }

  it.each([
    ['cloned twice and filled', [{ shapes: [{ name: 'Title', content: 'A' }] }, { shapes: [] }]],
    ['kept as it is', [{ shapes: [] }]],
  ])(
    'are rewritten to stay inside the package, with a warning, when the slide is %s',
    async (_case, uses) => {
      const source = template();
      const output = run(source, { slides: uses.map((use) => ({ slide_index: 1, ...use })) });
      const rels = [...parts(output.bytes)].filter(([name]) => name.endsWith('.rels'));
      for (const [name, xml] of rels) {
        const sourcePart = sourcePartOfRels(`/${name}`) ?? '/';
        for (const [, target, mode] of xml.matchAll(/Target="([^"]*)"( TargetMode="External")?/g)) {
          if (mode) continue;
          expect(targetEscape(sourcePart, target ?? ''), `${name}: ${target}`).toBeNull();
        }
        expect(xml, name).not.toMatch(/file:|%2e%2e/);
      }
      for (const [id, , target] of outside) {
        expect(output.warnings).toContainEqual({
          path: '/ppt/slides/_rels/slide2.xml.rels',
          message: `relationship ${id} points outside the package (Target "${target}"): it was rewritten to stay inside, where it names no part`,
        });
      }
      expect(output.warnings).toContainEqual({
        path: '/ppt/slideMasters/_rels/slideMaster1.xml.rels',
        message: expect.stringMatching(/^relationship rId91 points outside the package/),
      });
      // The link's r:id still names a relationship: nothing dangles that did not in the template.
      await expectValidPptx(output.bytes, source);
    },
  );
});

describe('a relationship a part cannot do without, pointing outside or at nothing', () => {
  it.each([['../../../etc/passwd'], ['file:///etc/passwd'], ['../slideLayouts/slideLayout9.xml']])(
    'a slide whose layout relationship has Target %s makes the template unusable, naming the rels part',
    (target) => {
      const broken = editPart(SAMPLE, 'ppt/slides/_rels/slide2.xml.rels', (xml) =>
        xml.replace(/Target="[^"]*slideLayout[^"]*"/, `Target="${target}"`),
      );
      const error = engineErrorOf(() => run(broken, { slides: [{ slide_index: 1 }] }));
      expect(error).toMatchObject({ code: 'INVALID_TEMPLATE', path: '/ppt/slides/_rels/slide2.xml.rels' });
      expect(error.message).toMatch(/\(slideLayout\) points .*the part cannot do without it/);
    },
  );
});

describe('a Target that climbs above the root but names a part of the package', () => {
  it('is written back as the proper Target, without a warning (a real producer’s slip, not an attack)', async () => {
    const source = editPart(SAMPLE, '_rels/.rels', (xml) =>
      xml.replace('Target="docProps/app.xml"', 'Target="../docProps/app.xml"'),
    );
    const output = run(source, { slides: [{ slide_index: 0 }] });
    const rootRels = parts(output.bytes).get('_rels/.rels') ?? '';
    expect(rootRels).toContain('Target="docProps/app.xml"');
    expect(rootRels).not.toContain('../');
    expect(output.warnings.filter((w) => /outside the package/.test(w.message))).toEqual([]);
    await expectValidPptx(output.bytes, source);
  });
});

describe('hyperlinks in text runs', () => {
  const link = (hyperlink: string) =>
    engineErrorOf(() =>
      run(SAMPLE, {
        slides: [
          {
            slide_index: 1,
            shapes: [{ name: 'Title', content: [{ text_run: 'Click', text_properties: { hyperlink } }] }],
          },
        ],
      }),
    );

  it.each([
    'javascript:alert(document.cookie)',
    'JavaScript:alert(1)',
    'file:///etc/passwd',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'vbscript:msgbox(1)',
    'ms-excel:ofe|u|https://evil.example/x.xlsx',
    '\\\\server\\share\\payload.exe',
    'https:/missing-host',
  ])('%s is refused with the run’s JSON path', (hyperlink) => {
    const error = link(hyperlink);
    expect(error.code).toBe('INVALID_PAYLOAD');
    expect(error.path).toBe('presentation.slides[0].shapes[0].content[0].text_properties.hyperlink');
    expect(error.message).toMatch(/expected an http\(s\) or mailto URL/);
  });

  it('http, https and mailto links are written as hyperlink relationships', () => {
    const output = run(SAMPLE, {
      slides: [
        {
          slide_index: 1,
          shapes: [
            {
              name: 'Title',
              content: ['http://example.com/a', 'HTTPS://example.com/b', 'mailto:team@example.com'].map(
                (url) => ({
                  text_run: url,
                  text_properties: { hyperlink: url },
                }),
              ),
            },
          ],
        },
      ],
    });
    const rels = [...parts(output.bytes)].find(([name]) => name === 'ppt/slides/_rels/slide2.xml.rels')?.[1];
    for (const url of ['http://example.com/a', 'HTTPS://example.com/b', 'mailto:team@example.com']) {
      expect(rels).toContain(`Target="${url}" TargetMode="External"`);
    }
  });
});

describe('a slide without a layout', () => {
  // Its relationships part gone: the slide follows no layout, which PowerPoint does not open.
  const orphan = editPackage(SAMPLE, (files) => {
    delete files['ppt/slides/_rels/slide2.xml.rels'];
  });

  it('is refused when the payload uses it, naming the slide part', () => {
    const error = engineErrorOf(() => run(orphan, { slides: [{ slide_index: 1 }] }));
    expect([error.code, error.path]).toEqual(['INVALID_TEMPLATE', '/ppt/slides/slide2.xml']);
    expect(error.message).toContain('template slide 1 has no slide layout relationship');
  });

  it('leaves the other slides usable', async () => {
    const output = run(orphan, { slides: [{ slide_index: 0 }, { slide_index: 2 }] });
    expect(inspect(output.bytes).slides).toHaveLength(2);
    await expectValidPptx(output.bytes, orphan);
  });
});

describe('a slide master listing a layout it has no relationship to', () => {
  const broken = editPart(SAMPLE, 'ppt/slideMasters/slideMaster1.xml', (xml) =>
    xml.replace(/(<p:sldLayoutId [^>]*r:id=")[^"]*"/, '$1rId999"'),
  );

  it('is refused when the layouts are read (inspect), naming the master', () => {
    const error = engineErrorOf(() => inspect(broken));
    expect([error.code, error.path]).toEqual(['INVALID_TEMPLATE', '/ppt/slideMasters/slideMaster1.xml']);
    expect(error.message).toContain('r:id="rId999"');
  });

  it('is refused for a deck that only clones slides too: every deck keeps the masters', () => {
    // Found by the template fuzzer (seed 694439225): the master went to the output as it was, unopenable.
    const error = engineErrorOf(() => run(broken, { slides: [{ slide_index: 0 }] }));
    expect([error.code, error.path]).toEqual(['INVALID_TEMPLATE', '/ppt/slideMasters/slideMaster1.xml']);
    expect(error.message).toContain('r:id="rId999"');
  });
});
