import { describe, expect, it } from 'vitest';
import { parsePayload } from './parse-payload.js';
import { sanitiseResultFileName } from './result-file-name.js';

describe('sanitiseResultFileName', () => {
  it('does not double a trailing .pptx', () => {
    expect(sanitiseResultFileName('Report.pptx')).toBe('Report');
    expect(sanitiseResultFileName('Report.PPTX')).toBe('Report');
    expect(sanitiseResultFileName('Report')).toBe('Report');
  });

  it('leaves no path separators, control characters or reserved characters', () => {
    expect(sanitiseResultFileName('../../etc/passwd')).toBe('_.._etc_passwd');
    expect(sanitiseResultFileName('a\\b/c')).toBe('a_b_c');
    expect(sanitiseResultFileName('Q3\r\nreport\u0000\u007f')).toBe('Q3report');
    expect(sanitiseResultFileName('a<b>c:d"e|f?g*h')).toBe('a_b_c_d_e_f_g_h');
    expect(sanitiseResultFileName('invoice\u202Excod.pptx')).toBe('invoicexcod');
  });

  it('drops leading dots and trailing dots or spaces, and gives null when nothing is left', () => {
    expect(sanitiseResultFileName('.hidden')).toBe('hidden');
    expect(sanitiseResultFileName('name. . ')).toBe('name');
    expect(sanitiseResultFileName('..')).toBeNull();
    expect(sanitiseResultFileName(' .pptx')).toBeNull();
  });

  it('keeps non-ASCII names and bounds the length in UTF-8 bytes', () => {
    expect(sanitiseResultFileName('Prüfbericht 2026 – Übersicht')).toBe('Prüfbericht 2026 – Übersicht');
    const long = sanitiseResultFileName('ü'.repeat(200)) as string;
    expect(new TextEncoder().encode(long).length).toBeLessThanOrEqual(250);
    expect(long.length).toBe(125);
  });
});

describe('resultFileName in the payload', () => {
  const parse = (resultFileName: unknown) =>
    parsePayload({ presentation: { template: 't.pptx', resultFileName, slides: [{ slide_index: 0 }] } });

  it('is sanitised, with a warning when it had to be changed', () => {
    expect(parse('Q3 results.pptx')).toEqual(expect.objectContaining({ warnings: [] }));
    expect(parse('Q3 results.pptx').request.resultFileName).toBe('Q3 results');
    const changed = parse('a/b');
    expect(changed.request.resultFileName).toBe('a_b');
    expect(changed.warnings).toEqual([
      { path: 'presentation.resultFileName', message: 'resultFileName was made safe as a file name: "a_b"' },
    ]);
    const empty = parse('...');
    expect(empty.request.resultFileName).toBeNull();
    expect(empty.warnings[0]?.path).toBe('presentation.resultFileName');
  });

  it('must be a string', () => {
    expect(() => parse(42)).toThrow('presentation.resultFileName: expected a string, got 42');
  });
});
