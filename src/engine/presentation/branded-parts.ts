/**
 * The parts of a deck the payload's brand changes (docs/payload.md "Brand"): the theme of each slide master of a
 * template (theme-change.ts) and the masters and layouts whose shapes it fills, each filled like a slide through a
 * draft of its output copy. The deck template's own parts are changed where they are; another template's are
 * changed as they are imported (template-import.ts), so a change stays with its template.
 */
import type { PackageBuilder } from '../package/package-builder.js';
import type { Relationship } from '../package/relationships.js';
import { changeTheme, type TypefaceDetails } from '../theme/theme-change.js';
import { cloneDocument, serializeXml, type XmlDocument } from '../xml/index.js';
import {
  HANDOUT_MASTER_REL,
  NOTES_MASTER_REL,
  relationshipsStillNamed,
  THEME_REL,
} from './relationship-policy.js';
import { SlideDraft, type DraftDeck, type DraftSource } from './slide-draft.js';
import type { Template } from './template.js';
import type { DeckBrand, PartEditor } from './template-brand.js';

export class BrandedParts {
  private readonly themes = new Map<Template, Set<string>>();

  constructor(
    readonly brand: DeckBrand,
    private readonly deck: DraftDeck,
  ) {}

  /** How the brand changes `part` of `template`, or null when the part goes to the output as it is. */
  editorOf(template: Template, part: string): PartEditor | null {
    const brand = this.brand.templates.get(template);
    if (!brand) return null;
    const fill = brand.pages.get(part);
    if (fill)
      return (document, outputPart, rels) => this.fillPage(template, part, fill, document, outputPart, rels);
    const theme = brand.theme;
    if (theme && this.themesOf(template).has(part))
      return (document) => {
        changeTheme(document.root, theme, (family) => this.embeddedFamily(family));
        return serializeXml(document);
      };
    return null;
  }

  /** Changes the deck template's own themes, masters and layouts in the output package, where they are. */
  applyInPlace(template: Template, builder: PackageBuilder): void {
    const brand = this.brand.templates.get(template);
    if (!brand) return;
    const parts = [...(brand.theme ? this.themesOf(template) : []), ...brand.pages.keys()];
    for (const part of parts) {
      const edit = this.editorOf(template, part);
      if (!edit) continue;
      // The builder's working copy of the part's relationships: what the fill adds to it stays.
      const xml = edit(cloneDocument(template.xml(part)), part, builder.relationships(part));
      builder.setPart(part, xml);
    }
  }

  /** An embedded family by name (case-insensitive, as Office matches typefaces): its spelling and attributes. */
  embeddedFamily(name: string): { family: string; attributes: TypefaceDetails } | null {
    const lower = name.toLowerCase();
    const found = this.brand.fonts.find((f) => f.typeface.toLowerCase() === lower);
    return found ? { family: found.typeface, attributes: found.attributes } : null;
  }

  /**
   * The theme parts of the template's slide masters, and of its notes and handout masters, so that printed notes
   * pages and handouts take the brand too (only the deck template's go to the output).
   */
  private themesOf(template: Template): Set<string> {
    let themes = this.themes.get(template);
    if (!themes) {
      themes = new Set();
      const main = template.pkg.mainPartName;
      const masters = [
        ...template.masters.map((master) => master.partName),
        template.related(main, NOTES_MASTER_REL),
        template.related(main, HANDOUT_MASTER_REL),
      ];
      for (const master of masters) {
        const theme = master === null ? null : template.related(master, THEME_REL);
        if (theme && template.pkg.has(theme)) themes.add(theme);
      }
      this.themes.set(template, themes);
    }
    return themes;
  }

  private fillPage(
    template: Template,
    part: string,
    fill: (draft: SlideDraft) => void,
    document: XmlDocument,
    outputPart: string,
    rels: Relationship[],
  ): string {
    const master = template.masters.find((m) => m.partName === part);
    const layout = template.layouts.find((l) => l.partName === part);
    const source: DraftSource = master
      ? { kind: 'master', template, master }
      : { kind: 'layout', template, layout: layout as NonNullable<typeof layout> };
    // Not an output slide: no position in the deck, no notes, never the template slide's first use.
    fill(new SlideDraft(-1, outputPart, () => document, rels, source, this.deck, null, false));
    const xml = serializeXml(document);
    // A removed shape leaves its picture or link relationship unnamed: it goes, and its part with it, as on slides.
    const kept = relationshipsStillNamed(rels, document.root);
    rels.length = 0;
    for (const rel of kept) rels.push(rel);
    return xml;
  }
}
