import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editPart } from '../decks/package-edit.js';
import { layoutsTemplate } from '../decks/layouts-template.js';
import { validateInProcess, validateShared } from './validator.js';
import { startValidatorServer, type ValidatorServer } from './validator-service.js';

describe('the shared validator process', () => {
  let server: ValidatorServer;
  beforeAll(async () => {
    server = await startValidatorServer();
  });
  afterAll(() => server.stop());

  it('answers with the errors the validator in this process finds', async () => {
    const broken = editPart(layoutsTemplate(), 'ppt/slides/slide1.xml', (x) =>
      x.replace('<p:cSld>', '<p:cSld><p:bogus/>'),
    );
    const here = await validateInProcess(broken, 'pptx');
    expect(here.map((e) => e.description).join('\n')).toMatch(/bogus/);
    expect(await validateShared(server.socket, broken, 'pptx')).toEqual(here);
    expect(await validateShared(server.socket, layoutsTemplate(), 'pptx')).toEqual([]);
  });

  it('throws what the validator throws, and keeps answering afterwards', async () => {
    const notAZip = new TextEncoder().encode('not a package');
    const thrown = await validateInProcess(notAZip, 'pptx').then(
      () => 'no error',
      (e: Error) => e.message,
    );
    expect(thrown).not.toBe('no error');
    await expect(validateShared(server.socket, notAZip, 'pptx')).rejects.toThrow(thrown);
    expect(await validateShared(server.socket, layoutsTemplate(), 'pptx')).toEqual([]);
  });
});
