import { describe, expect, it } from 'vitest';
import { engineErrorOf } from '../../../test/support/checks/engine-error.js';
import type { Warning } from '../errors.js';
import type { ParagraphProps, RunProps, TextContent } from './model.js';
import { parsePayload } from './parse-payload.js';
import { plainTextContent } from './text-content.js';

const AT = 'presentation.slides[0].shapes[0].text';

function parseText(text: unknown): { content: TextContent; warnings: Warning[] } {
  const { request, warnings } = parsePayload({
    presentation: { template: 't.pptx', slides: [{ slide_index: 0, shapes: [{ name: 'Body', text }] }] },
  });
  return { content: request.slides[0]?.shapes[0]?.content as TextContent, warnings };
}

/** Run and paragraph properties of a single run with these text_properties. */
function props(textProperties: Record<string, unknown>): { run: RunProps; paragraph: ParagraphProps } {
  const p = parseText([{ text_run: 'x', text_properties: textProperties }]).content.paragraphs[0];
  return { run: p?.runs[0]?.props ?? {}, paragraph: p?.props ?? {} };
}

function refusal(textProperties: Record<string, unknown>): string {
  return engineErrorOf(() => parseText([{ text_run: 'x', text_properties: textProperties }])).message;
}

const TP = `${AT}[0].text_properties`;

describe('plain strings', () => {
  it('makes one paragraph per line (\\n, \\r\\n, \\r), an empty line a paragraph without runs', () => {
    const lines = (s: string): string[] =>
      plainTextContent(s).paragraphs.map((p) => p.runs.map((r) => r.text).join(''));
    expect(lines('a\nb\r\nc\rd')).toEqual(['a', 'b', 'c', 'd']);
    expect(lines('a\n\nb')).toEqual(['a', '', 'b']);
    expect(plainTextContent('')).toEqual({
      kind: 'text',
      fromRuns: false,
      paragraphs: [{ props: {}, runs: [] }],
    });
  });
});

describe('runs', () => {
  it('starts a paragraph at new_line (not before the first run) and at \\n inside text_run', () => {
    const { content } = parseText([
      { text_run: 'one', text_properties: { new_line: true } },
      { text_run: ' more' },
      { text_run: 'two\nthree', text_properties: { new_line: true, font_bold: true } },
    ]);
    expect(content.fromRuns).toBe(true);
    expect(content.paragraphs.map((p) => p.runs.map((r) => r.text))).toEqual([
      ['one', ' more'],
      ['two'],
      ['three'],
    ]);
    expect(content.paragraphs[2]?.runs[0]?.props).toEqual({ bold: true });
  });

  it('gives a paragraph the paragraph properties of its runs', () => {
    const { content } = parseText([
      { text_run: 'Title', text_properties: { text_align: 'center' } },
      { text_run: 'Point', text_properties: { new_line: true, bullet: true, bullet_indent_level: 1 } },
    ]);
    expect(content.paragraphs.map((p) => p.props)).toEqual([{ align: 'ctr' }, { bullet: true, level: 1 }]);
  });

  it('takes an empty array as an empty text', () => {
    expect(parseText([]).content).toEqual({
      kind: 'text',
      fromRuns: true,
      paragraphs: [{ props: {}, runs: [] }],
    });
  });

  it('refuses a run without text_run, or with a text_run that is not a string', () => {
    expect(() => parseText([{ text_properties: {} }])).toThrow(
      `${AT}[0].text_run: expected a string or a typed value {number|date, format}, got nothing`,
    );
    expect(() => parseText([{ text_run: 5 }])).toThrow(
      `${AT}[0].text_run: expected a string or a typed value {number|date, format}, got 5`,
    );
    expect(() => parseText([{ text_run: 'x', text_properties: 'bold' }])).toThrow(
      `${TP}: expected a text_properties object, got "bold"`,
    );
  });
});

describe('text_properties, in DrawingML units', () => {
  it('maps the run properties', () => {
    expect(
      props({
        font_type: 'Georgia',
        font_size: 10.5,
        font_bold: true,
        font_italic: false,
        font_color: 'navy',
        font_bg_color: '#FFFF00',
        font_strike: true,
        hyperlink: 'https://example.com/a?b=c',
      }).run,
    ).toEqual({
      font: 'Georgia',
      size: 1050,
      bold: true,
      italic: false,
      color: '000080',
      highlight: 'FFFF00',
      strike: true,
      hyperlink: 'https://example.com/a?b=c',
    });
  });

  it('maps font_size 1–4000 pt to 1/100 pt and refuses sizes outside', () => {
    expect(props({ font_size: 1 }).run.size).toBe(100);
    expect(props({ font_size: 4000 }).run.size).toBe(400000);
    expect(refusal({ font_size: 0.5 })).toBe(`${TP}.font_size: expected a number from 1 to 4000, got 0.5`);
    expect(refusal({ font_size: 4001 })).toBe(`${TP}.font_size: expected a number from 1 to 4000, got 4001`);
    expect(refusal({ font_size: '12' })).toBe(`${TP}.font_size: expected a number from 1 to 4000, got "12"`);
  });

  it('maps every underline name to ST_TextUnderlineType', () => {
    const names: Record<string, string> = {
      single: 'sng',
      double: 'dbl',
      heavy: 'heavy',
      dotted: 'dotted',
      heavydotted: 'dottedHeavy',
      dashed: 'dash',
      heavydashed: 'dashHeavy',
      heavylongdashed: 'dashLongHeavy',
      dotdash: 'dotDash',
      heavydotdash: 'dotDashHeavy',
      heavydotdotdash: 'dotDotDashHeavy',
      wavy: 'wavy',
      heavywavy: 'wavyHeavy',
      doublewavy: 'wavyDbl',
      HeavyWavy: 'wavyHeavy',
    };
    for (const [name, value] of Object.entries(names))
      expect(props({ font_underline: name }).run.underline).toBe(value);
    expect(refusal({ font_underline: 'triple' })).toContain(
      `${TP}.font_underline: expected one of "single", "double"`,
    );
  });

  it('maps baseline superscript/subscript to 1/1000 %', () => {
    expect(props({ baseline: 'superscript' }).run.baseline).toBe(30000);
    expect(props({ baseline: 'subscript' }).run.baseline).toBe(-25000);
    expect(refusal({ baseline: 'raised' })).toBe(
      `${TP}.baseline: expected one of "superscript", "subscript", got "raised"`,
    );
  });

  it('maps text_align to ST_TextAlignType', () => {
    const aligns = { left: 'l', center: 'ctr', right: 'r', justified: 'just', dist: 'dist' };
    for (const [name, value] of Object.entries(aligns))
      expect(props({ text_align: name }).paragraph.align).toBe(value);
    expect(refusal({ text_align: 'middle' })).toContain(`${TP}.text_align: expected one of "left", "center"`);
  });

  it('maps text_indent in cm to EMU', () => {
    expect(props({ text_indent: 1 }).paragraph.indent).toBe(360000);
    expect(props({ text_indent: 0.5 }).paragraph.indent).toBe(180000);
    expect(props({ text_indent: -142.24 }).paragraph.indent).toBe(-51206400);
    expect(refusal({ text_indent: 150 })).toBe(
      `${TP}.text_indent: expected a number from -142.24 to 142.24, got 150`,
    );
  });

  it('maps text_line_spacing: 1.00–9.99 as a multiple (1/1000 %), larger whole numbers as points (1/100 pt)', () => {
    expect(props({ text_line_spacing: 1 }).paragraph.lineSpacing).toEqual({ unit: 'percent', value: 100000 });
    expect(props({ text_line_spacing: 1.5 }).paragraph.lineSpacing).toEqual({
      unit: 'percent',
      value: 150000,
    });
    expect(props({ text_line_spacing: 9.99 }).paragraph.lineSpacing).toEqual({
      unit: 'percent',
      value: 999000,
    });
    expect(props({ text_line_spacing: 24 }).paragraph.lineSpacing).toEqual({ unit: 'points', value: 2400 });
    expect(props({ text_line_spacing: 1584 }).paragraph.lineSpacing).toEqual({
      unit: 'points',
      value: 158400,
    });
    for (const bad of [0.5, 10.5, 1585, '2']) {
      expect(refusal({ text_line_spacing: bad })).toContain(
        `${TP}.text_line_spacing: expected a multiple of single spacing`,
      );
    }
  });

  it('maps the bullet properties', () => {
    expect(
      props({ bullet: true, bullet_character_code: 8226, bullet_indent_level: 8, bullet_size: 75 }).paragraph,
    ).toEqual({
      bullet: true,
      bulletChar: '•',
      level: 8,
      bulletSize: 75000,
    });
    expect(refusal({ bullet_indent_level: 9 })).toBe(
      `${TP}.bullet_indent_level: expected an integer from 0 to 8, got 9`,
    );
    expect(refusal({ bullet_indent_level: -1 })).toBe(
      `${TP}.bullet_indent_level: expected an integer from 0 to 8, got -1`,
    );
    expect(refusal({ bullet_character_code: 0xd800 })).toContain(
      `${TP}.bullet_character_code: expected a character code`,
    );
    expect(refusal({ bullet: 'yes' })).toBe(`${TP}.bullet: expected true or false, got "yes"`);
  });

  it('clamps bullet_size to the 25–400 % the file format allows, with a warning', () => {
    const { content, warnings } = parseText([{ text_run: 'x', text_properties: { bullet_size: 1000 } }]);
    expect(content.paragraphs[0]?.props.bulletSize).toBe(400000);
    expect(warnings).toEqual([
      { path: `${TP}.bullet_size`, message: 'bullet_size 1000 is outside 25–400 %, 400 % is used' },
    ]);
    expect(refusal({ bullet_size: 6000 })).toBe(
      `${TP}.bullet_size: expected a number from 0 to 5000, got 6000`,
    );
  });

  it('refuses bad colours and hyperlinks, and warns about unknown properties', () => {
    expect(refusal({ font_color: 'RGB(256,0,0)' })).toContain(`${TP}.font_color: expected a colour`);
    expect(refusal({ font_bg_color: 12 })).toContain(`${TP}.font_bg_color: expected a colour`);
    expect(refusal({ hyperlink: 'not a url' })).toBe(
      `${TP}.hyperlink: expected an http(s) or mailto URL (https://…, mailto:…), got "not a url"`,
    );
    const { warnings } = parseText([{ text_run: 'x', text_properties: { font_colour: 'red' } }]);
    expect(warnings).toEqual([
      {
        path: `${TP}.font_colour`,
        message: 'unknown key "font_colour" ignored (did you mean "font_color"?)',
        code: 'UNKNOWN_KEY',
      },
    ]);
  });
});
