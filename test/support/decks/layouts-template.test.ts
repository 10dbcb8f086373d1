import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OpcPackage } from '../../../src/engine/package/opc-package.js';
import { checkPackageInvariants } from '../checks/package-invariants.js';
import { layoutsTemplate, layoutsTemplatePath, tableTemplate } from './layouts-template.js';
import { validatePptx } from '../checks/validator.js';

describe('layouts template (the project-owned template of the service, HTTP, worker and CLI tests)', () => {
  it('is a sound package the Open XML SDK validator finds nothing wrong with', async () => {
    const template = layoutsTemplate();
    expect(checkPackageInvariants(template)).toEqual([]);
    expect(await validatePptx(template)).toEqual([]);
  });

  it('has a table variant that is as sound', async () => {
    const template = tableTemplate();
    expect(checkPackageInvariants(template)).toEqual([]);
    expect(await validatePptx(template)).toEqual([]);
  });

  it('holds ten slides on eleven layouts, a notes page and a picture', () => {
    const pkg = OpcPackage.open(layoutsTemplate());
    const parts = pkg.partNames();
    expect(parts.filter((p) => /^\/ppt\/slides\/slide\d+\.xml$/.test(p))).toHaveLength(10);
    expect(parts.filter((p) => /^\/ppt\/slideLayouts\/slideLayout\d+\.xml$/.test(p))).toHaveLength(11);
    expect(parts).toEqual(
      expect.arrayContaining(['/ppt/notesSlides/notesSlide1.xml', '/ppt/media/image1.png']),
    );
  });

  it('is written to a file with the same bytes', () => {
    expect(new Uint8Array(readFileSync(layoutsTemplatePath()))).toEqual(layoutsTemplate());
  });
});
