/**
 * A template, opened and read once: the package, presentation.xml, the slide list, the layouts, and each
 * slide's XML parsed on first use. A Template is immutable after construction (apart from its memoised
 * parses), so one instance serves any number of requests from the template cache; every request works on
 * clones of the trees.
 */
import { EngineError } from '../errors.js';
import { OpcPackage } from '../package/opc-package.js';
import type { PackageLimits } from '../package/limits.js';
import { REL, resolveTarget, type Relationship } from '../package/relationships.js';
import { checkXml, child, childElements, parseXml, type XmlDocument, type XmlElement } from '../xml/index.js';
import { matchingPlaceholder, type PlaceholderKey } from './placeholders.js';
import { SLIDE_MASTER_REL, THEME_REL } from './relationship-policy.js';

/** Heap a parsed XML tree takes per byte of its XML (elements, attribute objects, strings). */
const XML_TREE_FACTOR = 10;

export interface TemplateSlide {
  /** Zero-based position in the slide list. */
  index: number;
  /** `p:sldId/@id`. */
  id: number;
  /** The presentation-level relationship id (`p:sldId/@r:id`). */
  relId: string;
  partName: string;
  layoutPartName: string | null;
  notesPartName: string | null;
}

export interface TemplateLayout {
  /** Zero-based position over all masters' layouts, master by master (payload `type: "layout"`). */
  index: number;
  partName: string;
  masterPartName: string;
  name: string;
}

export interface TemplateMaster {
  /** Zero-based position in presentation.xml's master list (payload `masters[].index`). */
  index: number;
  partName: string;
  /** The master's own name (`p:cSld/@name`), else its theme's, as PowerPoint's Slide Master view shows it. */
  name: string;
}

export class Template {
  readonly slides: readonly TemplateSlide[];
  readonly presentation: XmlDocument;
  private readonly parsed = new Map<string, XmlDocument>();
  /** Parts checked without keeping their tree: their root element alone. */
  private readonly checkedRoots = new Map<string, XmlElement>();
  private readonly tagMarkers = new Map<string, boolean>();
  private layoutList: TemplateLayout[] | undefined;
  private masterList: TemplateMaster[] | undefined;
  private readonly placeholderChains = new Map<string, XmlElement[]>();
  /** Bytes of the XML parsed into trees so far (xml()). */
  private parsedXmlBytes = 0;

  constructor(
    readonly pkg: OpcPackage,
    /** Content hash, for the cache. */
    readonly hash: string,
  ) {
    this.presentation = this.xml(pkg.mainPartName);
    this.slides = this.readSlides();
    this.checkMasters();
  }

  /** Read on first use: most requests clone slides and never need the masters' layout lists. */
  get layouts(): readonly TemplateLayout[] {
    this.layoutList ??= this.readLayouts();
    return this.layoutList;
  }

  get masters(): readonly TemplateMaster[] {
    this.masterList ??= this.masterPartNames().map((partName, index) => {
      const own = child(this.xml(partName).root, 'p:cSld')?.attrs.name;
      const theme = this.related(partName, THEME_REL);
      const themeName = theme && this.pkg.has(theme) ? this.root(theme).attrs.name : undefined;
      return { index, partName, name: own || themeName || '' };
    });
    return this.masterList;
  }

  /**
   * The same template as an object of its own (sharing the package and its bytes): a deck treats it as another
   * template, so that what a payload changes in one template_list entry's masters and theme stays apart from
   * another entry of the same file (docs/payload.md "Brand").
   */
  separateCopy(): Template {
    return new Template(this.pkg, this.hash);
  }

  /**
   * An estimate of the memory the memoised work holds beyond the file itself, growing as parts are used: the
   * inflated parts, and the parsed trees at XML_TREE_FACTOR times their XML. On corpus decks the file plus this
   * came within about 25% of the heap a cached template kept alive (under it for media-heavy decks).
   */
  get memoisedBytes(): number {
    return this.pkg.inflatedBytes + XML_TREE_FACTOR * this.parsedXmlBytes;
  }

  static open(bytes: Uint8Array, hash: string, limits?: Partial<PackageLimits>): Template {
    return new Template(OpcPackage.open(bytes, limits), hash);
  }

  /** The parsed part, memoised. Callers must clone before changing it. */
  xml(partName: string): XmlDocument {
    let doc = this.parsed.get(partName);
    if (!doc) {
      const bytes = this.pkg.bytes(partName);
      doc = parseXml(bytes, partName);
      this.parsed.set(partName, doc);
      this.parsedXmlBytes += bytes.byteLength;
    }
    return doc;
  }

  /**
   * The part's root element (attributes only, when the part was not parsed in full), after the same checks as
   * xml(): for parts that go to the output unchanged. Memoised.
   */
  root(partName: string): XmlElement {
    const doc = this.parsed.get(partName);
    if (doc) return doc.root;
    let root = this.checkedRoots.get(partName);
    if (!root) {
      root = checkXml(this.pkg.bytes(partName), partName);
      this.checkedRoots.set(partName, root);
    }
    return root;
  }

  /** Whether a part may hold a tag (any `{`: the two braces may sit in different runs); memoised, no parse. */
  containsTagMarker(partName: string): boolean {
    let found = this.tagMarkers.get(partName);
    if (found === undefined) {
      found = this.pkg.text(partName).includes('{'); // a tag's braces may sit in different runs
      this.tagMarkers.set(partName, found);
    }
    return found;
  }

  /**
   * The placeholders a slide placeholder `key` on `layoutPart` inherits from: the layout's, then the
   * master's (docs/powerpoint-rules.md "Picture placeholders"). Memoised: the same few lookups repeat on every
   * slide of every request.
   */
  inheritedPlaceholders(layoutPart: string | null, key: PlaceholderKey): readonly XmlElement[] {
    const cacheKey = `${layoutPart}|${key.type}|${key.idx}`;
    let chain = this.placeholderChains.get(cacheKey);
    if (!chain) {
      const master = layoutPart && this.related(layoutPart, SLIDE_MASTER_REL);
      chain = [layoutPart, master]
        .map((part) => (part && this.pkg.has(part) ? matchingPlaceholder(this.xml(part).root, key) : null))
        .filter((el): el is XmlElement => el !== null);
      this.placeholderChains.set(cacheKey, chain);
    }
    return chain;
  }

  relationships(partName: string): readonly Relationship[] {
    return this.pkg.relationships(partName);
  }

  /** The part a relationship of `type` from `partName` points at, if any (first match, internal only). */
  related(partName: string, type: string): string | null {
    const rel = this.relationships(partName).find((r) => r.type === type && !r.external);
    return rel ? resolveTarget(partName, rel.target) : null;
  }

  private readSlides(): TemplateSlide[] {
    const sldIdLst = child(this.presentation.root, 'p:sldIdLst');
    if (!sldIdLst) return [];
    const rels = this.relationships(this.pkg.mainPartName);
    return childElements(sldIdLst, 'p:sldId').map((sldId, index) => {
      const relId = sldId.attrs['r:id'] ?? '';
      const rel = rels.find((r) => r.id === relId);
      if (!rel || rel.external) {
        throw new EngineError(
          'INVALID_TEMPLATE',
          `slide ${index} (p:sldId r:id="${relId}") has no slide relationship`,
          this.pkg.mainPartName,
        );
      }
      const partName = resolveTarget(this.pkg.mainPartName, rel.target);
      if (!this.pkg.has(partName))
        throw new EngineError('INVALID_TEMPLATE', `slide ${index} points at a missing part`, partName);
      return {
        index,
        id: Number(sldId.attrs.id),
        relId,
        partName,
        layoutPartName: this.related(partName, REL.slideLayout),
        notesPartName: this.related(partName, REL.notesSlide),
      };
    });
  }

  /** The slide masters presentation.xml lists, as part names (every one goes to the output). */
  private masterPartNames(): string[] {
    const masterList = child(this.presentation.root, 'p:sldMasterIdLst');
    const presRels = this.relationships(this.pkg.mainPartName);
    return (masterList ? childElements(masterList, 'p:sldMasterId') : []).flatMap((masterId) => {
      const rel = presRels.find((r) => r.id === masterId.attrs['r:id']);
      const partName = rel && resolveTarget(this.pkg.mainPartName, rel.target);
      return partName && this.pkg.has(partName) ? [partName] : [];
    });
  }

  /**
   * A master listing a layout it has no relationship to does not open in PowerPoint, and every deck keeps the
   * template's masters: such a template is refused when it is opened, whatever the deck uses of it.
   */
  private checkMasters(): void {
    for (const masterPartName of this.masterPartNames()) {
      const masterRels = this.relationships(masterPartName);
      const layoutList = child(this.xml(masterPartName).root, 'p:sldLayoutIdLst');
      for (const layoutId of layoutList ? childElements(layoutList, 'p:sldLayoutId') : []) {
        const relId = layoutId.attrs['r:id'] ?? '';
        if (!masterRels.some((r) => r.id === relId))
          throw new EngineError(
            'INVALID_TEMPLATE',
            `the slide master lists layout r:id="${relId}", which names none of its relationships`,
            masterPartName,
          );
      }
    }
  }

  private readLayouts(): TemplateLayout[] {
    const layouts: TemplateLayout[] = [];
    for (const masterPartName of this.masterPartNames()) {
      const masterRels = this.relationships(masterPartName);
      const layoutList = child(this.xml(masterPartName).root, 'p:sldLayoutIdLst');
      for (const layoutId of layoutList ? childElements(layoutList, 'p:sldLayoutId') : []) {
        // Each names a relationship: checkMasters saw to it when the template was opened.
        const layoutRel = masterRels.find((r) => r.id === layoutId.attrs['r:id']);
        const partName = layoutRel && resolveTarget(masterPartName, layoutRel.target);
        if (!partName || !this.pkg.has(partName)) continue;
        const cSld = child(this.xml(partName).root, 'p:cSld');
        layouts.push({ index: layouts.length, partName, masterPartName, name: cSld?.attrs.name ?? '' });
      }
    }
    return layouts;
  }
}

/**
 * How many slides a template's presentation.xml lists (what an `all_slides` entry becomes), read from that part
 * alone: no slide is opened.
 */
export function templateSlideCount(bytes: Uint8Array, limits?: Partial<PackageLimits>): number {
  const pkg = OpcPackage.open(bytes, limits);
  const sldIdLst = child(parseXml(pkg.bytes(pkg.mainPartName), pkg.mainPartName).root, 'p:sldIdLst');
  return sldIdLst ? childElements(sldIdLst, 'p:sldId').length : 0;
}
