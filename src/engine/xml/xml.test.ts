import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { CORPUS_DIR as CORPUS, itCorpus } from '../../../test/support/corpus/corpus.js';
import { EngineError } from '../errors.js';
import {
  checkXml,
  child,
  cloneDocument,
  element,
  insertInOrder,
  parseXml,
  serializeXml,
  textContent,
} from './index.js';
import { MAX_XML_DEPTH } from './parse.js';

function corpusXmlParts(): { file: string; part: string; xml: string }[] {
  const parts: { file: string; part: string; xml: string }[] = [];
  for (const dir of ['pptx-automizer', 'python-pptx', 'ShapeCrawler']) {
    for (const file of readdirSync(join(CORPUS, dir))
      .filter((f) => f.endsWith('.pptx'))
      .slice(0, 6)) {
      const entries = unzipSync(new Uint8Array(readFileSync(join(CORPUS, dir, file))));
      for (const [part, data] of Object.entries(entries)) {
        const xml = new TextDecoder().decode(data);
        // Some add-ins store opaque non-XML blobs under .xml names (customXml items); we never parse those.
        if (/\.(xml|rels)$/.test(part) && /^\uFEFF?\s*</.test(xml))
          parts.push({ file: `${dir}/${file}`, part, xml });
      }
    }
  }
  return parts;
}

describe('xml', () => {
  itCorpus('round-trips every XML part of real decks without changing the tree', () => {
    const parts = corpusXmlParts();
    expect(parts.length).toBeGreaterThan(500);
    for (const { xml } of parts) {
      const doc = parseXml(xml);
      const again = parseXml(serializeXml(doc));
      expect(again).toEqual(doc);
    }
  });

  it('keeps text, entities and attribute order', () => {
    const source =
      '<?xml version="1.0"?>\n<a:p xmlns:a="urn:a"><a:r><a:rPr lang="en-US" b="1"/><a:t>Tom &amp; Jerry &lt;3 &#x263A;</a:t></a:r></a:p>';
    const doc = parseXml(source);
    expect(textContent(doc.root)).toBe('Tom & Jerry <3 ☺');
    expect(Object.keys(child(child(doc.root, 'a:r')!, 'a:rPr')!.attrs)).toEqual(['lang', 'b']);
    expect(serializeXml(doc)).toBe(
      '<?xml version="1.0"?>\n<a:p xmlns:a="urn:a"><a:r><a:rPr lang="en-US" b="1"/><a:t>Tom &amp; Jerry &lt;3 ☺</a:t></a:r></a:p>',
    );
  });

  itCorpus('checks a part without keeping its tree: the root and its attributes, no children', () => {
    const root = checkXml(
      '<?xml version="1.0"?><p:sld show="0" xmlns:p="urn:p"><p:cSld><a/>x</p:cSld></p:sld>',
    );
    expect(root).toEqual({
      kind: 'element',
      name: 'p:sld',
      attrs: { show: '0', 'xmlns:p': 'urn:p' },
      children: [],
    });
    for (const { xml } of corpusXmlParts()) expect(checkXml(xml).attrs).toEqual(parseXml(xml).root.attrs);
  });

  // checkXml stands in for parseXml on parts that go out unchanged: it must refuse the same inputs.
  const parsers = [
    ['parseXml', parseXml],
    ['checkXml', checkXml],
  ] as const;

  it.each(parsers)('%s refuses a DOCTYPE and any entity beyond the five predefined ones', (_, parse) => {
    const bomb =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]><p>&lol2;</p>';
    expect(() => parse(bomb, '/ppt/slides/slide1.xml')).toThrow(EngineError);
    expect(() => parse(bomb)).toThrow(/DOCTYPE/);
    expect(() => parse('<p>&ext;</p>')).toThrow(/entity "&ext;" is not allowed/);
    expect(() => parse('<p><q a="&ext;"/></p>')).toThrow(/entity "&ext;" is not allowed/);
    expect(() => parse('<p><!DOCTYPE x></p>')).toThrow(/DOCTYPE/);
  });

  it.each(parsers)('%s reports malformed XML as an invalid template, naming the part', (_, parse) => {
    for (const bad of [
      '<a><b></a>',
      '<a',
      '<a x=1/>',
      '<a>&amp</a>',
      '',
      '<a/><b/>',
      '<a><b x="1" x="2"/></a>',
      '<a><<b/></a>',
      '<a><1b/></a>',
    ]) {
      try {
        parse(bad, '/ppt/slides/slide9.xml');
        expect.unreachable(`accepted ${bad}`);
      } catch (error) {
        expect(error).toBeInstanceOf(EngineError);
        expect((error as EngineError).code).toBe('INVALID_TEMPLATE');
        expect((error as EngineError).message).toContain('/ppt/slides/slide9.xml');
      }
    }
  });

  it('refuses nesting past MAX_XML_DEPTH as a limit, naming the part, without a stack overflow', () => {
    const nested = (depth: number) => '<a>'.repeat(depth) + '</a>'.repeat(depth);
    for (const check of [parseXml, checkXml]) {
      expect(() => check(nested(100_000), '/ppt/slides/slide1.xml')).toThrow(
        expect.objectContaining({ code: 'LIMIT_EXCEEDED', path: '/ppt/slides/slide1.xml' }),
      );
    }
    const deepest = parseXml(nested(MAX_XML_DEPTH));
    let depth = 1;
    for (let el = deepest.root; el.children[0]?.kind === 'element'; el = el.children[0]) depth++;
    expect(depth).toBe(MAX_XML_DEPTH);
    // What the engine does with trees (clone, serialise) works at the limit.
    expect(serializeXml(cloneDocument(deepest))).toBe(nested(MAX_XML_DEPTH).replace(/<a><\/a>/, '<a/>'));
  });

  it('strips characters XML 1.0 forbids when writing', () => {
    const doc = {
      prolog: '',
      root: element('a:t', {}, [{ kind: 'text' as const, text: 'a\u000bb\u0000c' }]),
    };
    // The a prefix was declared nowhere: the serializer declares it (namespaces.ts).
    expect(serializeXml(doc)).toBe(
      '<a:t xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">abc</a:t>',
    );
  });

  it('inserts children in schema order and replaces singletons', () => {
    const order = ['a:ln', 'a:solidFill', 'a:latin', 'a:hlinkClick'];
    const rPr = element('a:rPr', {}, [element('a:latin'), element('a:ext-unknown')]);
    insertInOrder(rPr, element('a:hlinkClick'), order);
    insertInOrder(rPr, element('a:solidFill'), order);
    insertInOrder(rPr, element('a:solidFill', { x: '1' }), order);
    expect(rPr.children.map((c) => (c.kind === 'element' ? c.name : ''))).toEqual([
      'a:solidFill',
      'a:latin',
      'a:ext-unknown',
      'a:hlinkClick',
    ]);
  });
});
