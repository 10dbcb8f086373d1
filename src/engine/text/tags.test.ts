import { describe, expect, it } from 'vitest';
import { itCorpus, readCorpus } from '../../../test/support/corpus/corpus.js';
import {
  child,
  childElements,
  descendants,
  parseXml,
  serializeElement,
  textContent,
  type XmlElement,
} from '../xml/index.js';
import { replaceTags } from './tags.js';

const NS =
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ' +
  'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';

function doc(inner: string): XmlElement {
  return parseXml(`<p:txBody ${NS}><a:bodyPr/>${inner}</p:txBody>`).root;
}

const lookupFrom =
  (values: Record<string, string>) =>
  (key: string): string | undefined =>
    values[key];

const paragraphs = (root: XmlElement) => childElements(root, 'a:p');

describe('replaceTags', () => {
  it('replaces a tag inside one run and keeps the run’s formatting', () => {
    const root = doc('<a:p><a:r><a:rPr lang="en-US" b="1"/><a:t>Hello {{name}}!</a:t></a:r></a:p>');
    const report = replaceTags(root, lookupFrom({ name: 'Ada' }));
    expect(textContent(root)).toBe('Hello Ada!');
    expect(child([...descendants(root, 'a:r')][0]!, 'a:rPr')!.attrs).toEqual({ lang: 'en-US', b: '1' });
    expect([...report.used]).toEqual(['name']);
    expect(report.unknown.size).toBe(0);
  });

  it('finds a tag split across three runs with different err/lang/dirty attributes; the value takes the first run’s formatting', () => {
    const root = doc(
      '<a:p><a:r><a:rPr lang="en-US" sz="2000" dirty="0"/><a:t>Total: {{ cust</a:t></a:r>' +
        '<a:r><a:rPr lang="de-DE" sz="2000" err="1"/><a:t>omer_na</a:t></a:r>' +
        '<a:r><a:rPr lang="en-GB" sz="2000" noProof="1"/><a:t>me }} is due</a:t></a:r>' +
        '<a:endParaRPr lang="en-US" sz="2000"/></a:p>',
    );
    const report = replaceTags(root, lookupFrom({ customer_name: 'ACME & Co <Ltd>' }));
    const runs = [...descendants(root, 'a:r')];
    expect(textContent(root)).toBe('Total: ACME & Co <Ltd> is due');
    // The value sits in the run where the tag began, with that run's formatting (minus stale flags).
    expect(textContent(runs[0]!)).toBe('Total: ACME & Co <Ltd>');
    expect(child(runs[0]!, 'a:rPr')!.attrs).toEqual({ lang: 'en-US', sz: '2000' });
    // The middle run held only tag text and is gone; the last keeps its own text after the tag.
    expect(runs).toHaveLength(2);
    expect(textContent(runs[1]!)).toBe(' is due');
    expect(child(runs[1]!, 'a:rPr')!.attrs['lang']).toBe('en-GB');
    expect(serializeElement(root)).toContain('ACME &amp; Co &lt;Ltd&gt;');
    expect(childElements(paragraphs(root)[0]!).at(-1)!.name).toBe('a:endParaRPr');
    expect([...report.used]).toEqual(['customer_name']);
  });

  it('replaces several tags in one paragraph, including two in the same run and one across runs', () => {
    const root = doc(
      '<a:p><a:r><a:rPr lang="en-US"/><a:t>{{a}}-{{b}} and {</a:t></a:r>' +
        '<a:r><a:rPr lang="en-US" err="1"/><a:t>{c}</a:t></a:r><a:r><a:rPr lang="en-US"/><a:t>} end {{a}}</a:t></a:r></a:p>',
    );
    replaceTags(root, lookupFrom({ a: '1', b: '22', c: '333' }));
    expect(textContent(root)).toBe('1-22 and 333 end 1');
  });

  it('leaves unknown tags as they are and reports them; trims spaces inside the braces', () => {
    const root = doc('<a:p><a:r><a:t>{{  known }} {{unknown}} {{}}</a:t></a:r></a:p>');
    const report = replaceTags(root, lookupFrom({ known: 'yes' }));
    expect(textContent(root)).toBe('yes {{unknown}} {{}}');
    expect([...report.used]).toEqual(['known']);
    expect([...report.unknown]).toEqual(['unknown']);
  });

  it('starts a new paragraph for \\n in a value, cloning the paragraph’s pPr, and a line break for \\v', () => {
    const root = doc(
      '<a:p><a:pPr marL="342900" indent="-342900"><a:buChar char="•"/></a:pPr>' +
        '<a:r><a:rPr lang="en-US" sz="1400"/><a:t>Items: {{list}} (end)</a:t></a:r><a:endParaRPr lang="en-US" sz="1400"/></a:p>' +
        '<a:p><a:r><a:t>after</a:t></a:r></a:p>',
    );
    replaceTags(root, lookupFrom({ list: 'one\ntwo\vtwo-b\nthree' }));
    const ps = paragraphs(root);
    expect(ps.map((p) => textContent(p))).toEqual(['Items: one', 'twotwo-b', 'three (end)', 'after']);
    for (const p of ps.slice(0, 3)) {
      expect(serializeElement(child(p, 'a:pPr')!)).toBe(
        '<a:pPr marL="342900" indent="-342900"><a:buChar char="•"/></a:pPr>',
      );
      expect(childElements(p).at(-1)!.name).toBe('a:endParaRPr');
      for (const run of childElements(p, 'a:r')) expect(child(run, 'a:rPr')!.attrs['sz']).toBe('1400');
    }
    expect(childElements(ps[1]!).map((e) => e.name)).toEqual(['a:pPr', 'a:r', 'a:br', 'a:r', 'a:endParaRPr']);
    expect(serializeElement(root)).not.toMatch(/[\n\v]/);
  });

  it('does not match across a line break or a field', () => {
    const root = doc(
      '<a:p><a:r><a:t>{{na</a:t></a:r><a:br/><a:r><a:t>me}}</a:t></a:r>' +
        '<a:fld id="{B6F15528-21DE-4FAA-801E-634DDDAF4B2B}" type="slidenum"><a:t>{{name}}</a:t></a:fld></a:p>',
    );
    const report = replaceTags(root, lookupFrom({ name: 'X' }));
    expect(textContent(root)).toBe('{{name}}{{name}}');
    expect(report.used.size).toBe(0);
  });

  it('replaces tags in table cells, notes-style bodies and every paragraph under the root', () => {
    const root = parseXml(
      `<p:sld ${NS}><p:cSld><p:spTree><p:graphicFrame><a:graphic><a:graphicData><a:tbl><a:tr h="1"><a:tc><a:txBody><a:bodyPr/>` +
        `<a:p><a:r><a:t>{{cell}}</a:t></a:r></a:p></a:txBody></a:tc></a:tr></a:tbl></a:graphicData></a:graphic></p:graphicFrame>` +
        `<p:sp><p:txBody><a:bodyPr/><a:p><a:r><a:t>{{cell}} again</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>`,
    ).root;
    replaceTags(root, lookupFrom({ cell: 'C' }));
    expect([...descendants(root, 'a:p')].map((p) => textContent(p))).toEqual(['C', 'C again']);
  });

  itCorpus(
    'replaces tags in a real deck: TextReplaceBullets.pptx keeps the numbered and bulleted formatting',
    async () => {
      const { unzipSync, strFromU8 } = await import('fflate');
      const zip = unzipSync(readCorpus('pptx-automizer/TextReplaceBullets.pptx'));
      const root = parseXml(strFromU8(zip['ppt/slides/slide1.xml']!)).root;
      const report = replaceTags(
        root,
        lookupFrom({ bullet1: 'First\nSecond', bullet2: 'Point', 'bullet2-1': 'Sub point' }),
      );
      expect([...report.used].sort()).toEqual(['bullet1', 'bullet2', 'bullet2-1']);
      const ps = [...descendants(root, 'a:p')];
      const byText = (t: string) => ps.find((p) => textContent(p) === t)!;
      for (const t of ['First', 'Second']) {
        const pPr = child(byText(t), 'a:pPr')!;
        expect(child(pPr, 'a:buAutoNum')!.attrs['type']).toBe('arabicPeriod');
      }
      expect(child(child(byText('Point'), 'a:pPr')!, 'a:buChar')!.attrs['char']).toBe('•');
      expect(child(byText('Sub point'), 'a:pPr')!.attrs['lvl']).toBe('1');
      expect(serializeElement(root)).not.toContain('{{');
    },
  );
});
