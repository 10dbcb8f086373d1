/**
 * One walk of a part's tree finds everything the render-safe copy acts on in it:
 * - what each relationship is used for, read from the elements that name it (ECMA-376 Part 1 §22.8: `r:id`,
 *   `r:embed`, `r:link` and the other attributes of the relationships namespace; `relId` of a SmartArt drawing,
 *   VML's `o:relid`). A renderer follows the element, not the relationship's Type: a video behind an image
 *   relationship is still played by the `a:videoFile` that names it;
 * - the hyperlinks, the fields, and the attributes and texts whose value is a local or LibreOffice URL, which
 *   disarm-part.ts then judges.
 * Elements are named by local name (any prefix: LibreOffice reads a renamed namespace by its tokens).
 */
import { localName, type XmlElement, type XmlNode, type XmlText } from '../xml/index.js';

export type RelationshipUse = 'picture' | 'media' | 'embedded' | 'hyperlink' | 'other';

export interface PartSurvey {
  /** Relationship id → every use of it in the part. */
  uses: Map<string, Set<RelationshipUse>>;
  /** Hyperlink elements, each with the element it is a child of. */
  hyperlinks: [XmlElement, XmlElement][];
  /** `fld` elements. */
  fields: XmlElement[];
  /** [element, attribute] whose value is a local URL. */
  attributes: [XmlElement, string][];
  /** Text nodes (with their element) whose value is a local URL, outside what a slide shows. */
  texts: [XmlElement, XmlText][];
}

const USES: ReadonlyMap<string, RelationshipUse> = new Map([
  ...['blip', 'svgBlip', 'imgLayer', 'buBlip'].map((name) => [name, 'picture'] as const),
  ...['videoFile', 'audioFile', 'quickTimeFile', 'wavAudioFile', 'snd', 'sndTgt', 'media', 'audioCd'].map(
    (name) => [name, 'media'] as const,
  ),
  // OLE objects, controls, embedded workbooks, VML (legacy drawings and their pictures).
  ...['oleObj', 'control', 'OLEObject', 'externalData', 'legacyDrawing', 'legacyDrawingHF', 'imagedata'].map(
    (name) => [name, 'embedded'] as const,
  ),
  ...['hlinkClick', 'hlinkHover', 'hlinkMouseOver'].map((name) => [name, 'hyperlink'] as const),
]);

/** A value that names something on the renderer's machine, or a command LibreOffice would run. */
export const LOCAL_URL =
  /^\s*(?:(?:file|smb|nfs|afp|ftp|sftp|dav|davs|webdav|jar|zip|data|macro|slot|service|private|uno|\.uno|expand|cmis|vnd\.[a-z0-9.+-]+):|\\\\|\/\/|[a-z]:[\\/])/i;
/** Elements whose text a slide shows (a run's text, a chart's cached value): never followed, kept as written. */
const SHOWN_TEXT = new Set(['a:t', 'c:v']);

export function surveyPart(root: XmlElement): PartSurvey {
  const survey: PartSurvey = { uses: new Map(), hyperlinks: [], fields: [], attributes: [], texts: [] };
  const stack: XmlElement[] = [root];
  while (stack.length > 0) {
    const el = stack.pop() as XmlElement;
    const local = localName(el.name);
    if (local === 'fld') survey.fields.push(el);
    const use = USES.get(local) ?? 'other';
    for (const name in el.attrs) {
      const value = el.attrs[name] as string;
      if (namesRelationship(name)) {
        if (value !== '') addUse(survey.uses, value, use);
      } else if (mayBeUrl(value) && !name.startsWith('xmlns') && LOCAL_URL.test(value)) {
        survey.attributes.push([el, name]);
      }
    }
    const children: XmlNode[] = el.children;
    for (let i = 0; i < children.length; i++) {
      const node = children[i] as XmlNode;
      if (node.kind === 'element') {
        if (USES.get(localName(node.name)) === 'hyperlink') survey.hyperlinks.push([el, node]);
        stack.push(node);
      } else if (
        node.kind === 'text' &&
        mayBeUrl(node.text) &&
        !SHOWN_TEXT.has(el.name) &&
        LOCAL_URL.test(node.text)
      ) {
        survey.texts.push([el, node]);
      }
    }
  }
  return survey;
}

function addUse(uses: Map<string, Set<RelationshipUse>>, id: string, use: RelationshipUse): void {
  const found = uses.get(id);
  if (found) found.add(use);
  else uses.set(id, new Set([use]));
}

/** An attribute that holds a relationship id: any of the relationships namespace (prefix `r` once parsed), or a relId. */
function namesRelationship(attribute: string): boolean {
  if (attribute.charCodeAt(0) === 114 /* r */ && attribute.charCodeAt(1) === 58 /* : */) return true;
  const local = localName(attribute);
  return local === 'relId' || local === 'relid';
}

/** A cheap first look: every URL LOCAL_URL matches has a colon or starts with a (back)slash. */
function mayBeUrl(value: string): boolean {
  return value.indexOf(':') > 0 || value.indexOf('\\') >= 0 || value.indexOf('//') >= 0;
}
