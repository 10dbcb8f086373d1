/**
 * Every valid (non-Strict) corpus deck through open → PackageBuilder → build, unchanged: the result reopens,
 * has the same parts, every part is byte-identical (passthrough parts are even the same compressed bytes) but
 * a rels part whose Targets climbed above the package root (rewritten: relationships.ts; docs/security.md
 * "Templates built to hurt"), and the package invariants find nothing the template did not already have. The
 * Open XML SDK validator runs on a sample of decks: it needs seconds to minutes per deck (146 s for one POI
 * deck), and with every part byte-identical it could only find what the invariants and the part comparison
 * already cover.
 */
import { expect, it } from 'vitest';
import { corpusFiles, describeCorpus, readCorpus } from '../../../test/support/corpus/corpus.js';
import { expectValidPptx } from '../../../test/support/checks/expect-valid-pptx.js';
import { checkPackageInvariantsAgainst } from '../../../test/support/checks/package-invariants.js';
import { OpcPackage } from './opc-package.js';
import { PackageBuilder } from './package-builder.js';
import { resolveTarget, sourcePartOfRels } from './relationships.js';

/** One deck per producer family and feature mix: PowerPoint (charts, SmartArt, media, notes), Google Slides, LibreOffice, python-pptx. */
const VALIDATED = new Set([
  'pptx-automizer/ShapeTypesCollection.pptx',
  'pptx-automizer/SlideWithMedia.pptx',
  'pptx-automizer/SlideWithNotes.pptx',
  'pptx-automizer/GS_Tables_Merged.pptx',
  'pptx-automizer/SlideDimensions1.pptx',
  'python-pptx/shp-embedded-pptx.pptx',
]);

describeCorpus('round trip of the corpus, unchanged', () => {
  for (const file of corpusFiles().filter((f) => !f.strict)) {
    it(file.file, async () => {
      const template = readCorpus(file);
      const pkg = OpcPackage.open(template);
      const output = new PackageBuilder(pkg).build();
      const reopened = OpcPackage.open(output);

      expect(reopened.partNames().sort()).toEqual(pkg.partNames().sort());
      expect(reopened.mainPartName).toBe(pkg.mainPartName);
      for (const name of pkg.partNames()) {
        const source = sourcePartOfRels(name);
        if (source !== null && pkg.amendedRelationships(source)) {
          // Rewritten: the same relationships, each still reaching the same part.
          const resolved = (p: OpcPackage) =>
            p
              .relationships(source)
              .map((r) => [r.id, r.external ? r.target : resolveTarget(source, r.target)]);
          expect(resolved(reopened), `${name} reaches the same parts`).toEqual(resolved(pkg));
          continue;
        }
        const item = pkg.itemOf(name)!;
        expect(
          Buffer.compare(reopened.archive.rawData(item), pkg.archive.rawData(item)),
          `${name} copied raw`,
        ).toBe(0);
        expect(Buffer.compare(reopened.bytes(name), pkg.bytes(name)), `${name} inflates the same`).toBe(0);
      }
      for (const name of reopened.partNames()) {
        expect(reopened.contentTypes.typeOf(name), `${name} has a content type`).toBe(
          pkg.contentTypes.typeOf(name),
        );
      }
      expect(checkPackageInvariantsAgainst(output, template)).toEqual([]);
      if (VALIDATED.has(file.file)) await expectValidPptx(output, template);
    });
  }
});
