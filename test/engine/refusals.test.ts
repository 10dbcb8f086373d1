/**
 * Bad input never hurts us: every hostile or broken input is refused with a typed error and a message a
 * user can act on, in bounded time and memory.
 */
import { describe, expect, it } from 'vitest';
import { EngineError, generate, inspect, type EngineErrorCode } from '../../src/engine/index.js';
import { parsePayloadText } from '../../src/engine/payload/parse-payload.js';
import { invalidCorpusFiles, itCorpus, readCorpus } from '../support/corpus/corpus.js';
import { engineErrorOf } from '../support/checks/engine-error.js';
import {
  billionLaughsPptx,
  docxPackage,
  lyingSizeZipBomb,
  manyEntriesZip,
  nonZipFile,
  plainZip,
  truncatedZip,
  zipBomb,
} from '../support/decks/hostile-inputs.js';
import { run, SAMPLE } from '../support/decks/deck.js';

function refusal(template: Uint8Array): EngineError {
  return engineErrorOf(() =>
    generate({
      payload: { presentation: { template: 't.pptx', slides: [{ slide_index: 0 }] } },
      files: new Map([['t.pptx', template]]),
    }),
  );
}

function expectRefused(template: Uint8Array, code: EngineErrorCode, message: RegExp): void {
  const before = process.memoryUsage().rss;
  const error = refusal(template);
  expect(error.code).toBe(code);
  expect(error.message).toMatch(message);
  // Nothing was inflated past the limits: the process did not grow by hundreds of megabytes.
  expect(process.memoryUsage().rss - before).toBeLessThan(200 * 2 ** 20);
  // inspect shares the same door and refuses the same way.
  expect(() => inspect(template)).toThrow(EngineError);
}

describe('templates that must be refused', () => {
  it.each(invalidCorpusFiles().map((f) => [f.file, f] as const))('%s', (_name, file) => {
    const error = refusal(readCorpus(file));
    expect(error.code).toBe('INVALID_TEMPLATE');
    expect(error.message.length).toBeGreaterThan(20);
  });

  itCorpus('an encrypted (password-protected) presentation says so', () => {
    expectRefused(
      readCorpus('Open-XML-SDK/_invalid/encrypted_pptx.pptx'),
      'INVALID_TEMPLATE',
      /password-protected|encrypted/i,
    );
  });

  it('a file that is not a zip', () =>
    expectRefused(nonZipFile(), 'INVALID_TEMPLATE', /not a .*zip|not a presentation/i));
  it('a truncated zip', () => expectRefused(truncatedZip(), 'INVALID_TEMPLATE', /zip|truncated|corrupt/i));
  it('a zip that is not a package', () =>
    expectRefused(plainZip(), 'INVALID_TEMPLATE', /Content_Types|not a presentation|package/i));
  it('a Word document', () =>
    expectRefused(docxPackage(), 'INVALID_TEMPLATE', /word|document|not a presentation/i));
  it('a zip bomb (2 GiB of zeros in the slide)', () =>
    expectRefused(zipBomb(), 'LIMIT_EXCEEDED', /slide1\.xml/));
  it('a zip bomb whose headers lie about the size', () => {
    const error = refusal(lyingSizeZipBomb());
    expect(['LIMIT_EXCEEDED', 'INVALID_TEMPLATE']).toContain(error.code);
  });
  it('a zip with 100 000 entries', () => expectRefused(manyEntriesZip(), 'LIMIT_EXCEEDED', /entries|parts/i));
  it('XML with a DTD and entity declarations (billion laughs)', () =>
    expectRefused(billionLaughsPptx(), 'UNSAFE_XML', /DOCTYPE|DTD/));
});

describe('payloads that must be refused', () => {
  it('malformed JSON names the position', () => {
    expect(() => parsePayloadText('{"presentation": {"slides": [}')).toThrow(EngineError);
    expect(() => parsePayloadText('{"presentation": ')).toThrow(/JSON/);
  });

  it('wrong types name the JSON path and what was expected', () => {
    expect(() => run(SAMPLE, { slides: [{ slide_index: 'first' }] })).toThrow(
      /presentation\.slides\[0\]\.slide_index/,
    );
    expect(() => run(SAMPLE, { slides: [] })).toThrow(/presentation\.slides/);
    expect(() =>
      run(SAMPLE, { slides: [{ slide_index: 0, shapes: [{ name: 'Title', content: 42 }] }] }),
    ).toThrow(/presentation\.slides\[0\]\.shapes\[0\]\.content/);
  });

  it.each([
    ['data_cells', [['a', 'b']], 'is a text shape but content is a table'],
    ['data', [['Sales'], ['Q1'], [1]], 'is a text shape but content is a chart'],
  ])(
    'a %s entry for the wrong kind of shape is refused under the name the user sent',
    (field, value, says) => {
      const error = engineErrorOf(() =>
        run(SAMPLE, { slides: [{ slide_index: 0, shapes: [{ name: 'Title', [field]: value }] }] }),
      );
      expect(error.path).toBe(`presentation.slides[0].shapes[0].${field}`);
      expect(error.message).toContain(says);
    },
  );

  it('a template that was not uploaded lists what was', () => {
    expect(() =>
      generate({
        payload: { presentation: { template: 'missing.pptx', slides: [{ slide_index: 0 }] } },
        files: new Map([['other.pptx', SAMPLE]]),
      }),
    ).toThrow(
      'presentation.template: template "missing.pptx" is not among the uploaded files (uploaded: "other.pptx")',
    );
  });
});
