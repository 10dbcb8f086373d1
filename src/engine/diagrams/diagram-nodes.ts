/**
 * A SmartArt graphic's data model (dgm:dataModel, ECMA-376 Part 1 §21.4.2) read as PowerPoint's text pane shows
 * it: the points below the document point, in depth-first order along the parent-of connections (`dgm:cxn`
 * without a type, or `type="parOf"`), siblings by `srcOrd`. Each node knows the presentation points that show
 * its text (`presOf` connections), which are what the drawing part's shapes name by `modelId`.
 */
import { child, childElements, type XmlElement } from '../xml/index.js';

export interface DiagramNode {
  point: XmlElement;
  modelId: string;
  /** Depth below the document point: 0 for the text pane's first level. */
  level: number;
  /** Presentation points that draw this node's text. */
  presentations: string[];
}

/** Point types that are lines of the text pane (ST_PtType: `node` is the default, `asst` an assistant). */
const TEXT_POINT_TYPES = new Set(['node', 'asst']);

export interface DataModel {
  ptLst: XmlElement;
  cxnLst: XmlElement | undefined;
  nodes: DiagramNode[];
}

export function readDataModel(root: XmlElement): DataModel | null {
  const ptLst = child(root, 'dgm:ptLst');
  if (!ptLst) return null;
  const cxnLst = child(root, 'dgm:cxnLst');
  const points = childElements(ptLst, 'dgm:pt');
  const byId = new Map(points.map((pt) => [pt.attrs['modelId'] ?? '', pt]));
  const doc = points.find((pt) => pt.attrs['type'] === 'doc');
  if (!doc) return { ptLst, cxnLst, nodes: [] };
  const children = new Map<string, { order: number; id: string }[]>();
  const presentations = new Map<string, string[]>();
  for (const cxn of cxnLst ? childElements(cxnLst, 'dgm:cxn') : []) {
    const type = cxn.attrs['type'] ?? 'parOf';
    const src = cxn.attrs['srcId'] ?? '';
    const dest = cxn.attrs['destId'] ?? '';
    if (type === 'parOf') {
      const list = children.get(src) ?? [];
      list.push({ order: Number(cxn.attrs['srcOrd'] ?? 0), id: dest });
      children.set(src, list);
    } else if (type === 'presOf') {
      presentations.set(src, [...(presentations.get(src) ?? []), dest]);
    }
  }
  const nodes: DiagramNode[] = [];
  const seen = new Set<string>();
  const walk = (id: string, level: number): void => {
    const below = [...(children.get(id) ?? [])].sort((a, b) => a.order - b.order);
    for (const { id: childId } of below) {
      const point = byId.get(childId);
      if (!point || seen.has(childId) || !TEXT_POINT_TYPES.has(point.attrs['type'] ?? 'node')) continue;
      seen.add(childId);
      nodes.push({ point, modelId: childId, level, presentations: presentations.get(childId) ?? [] });
      walk(childId, level + 1);
    }
  };
  walk(doc.attrs['modelId'] ?? '', 0);
  return { ptLst, cxnLst, nodes };
}

/** The text of a point's dgm:t (paragraphs joined by "\n"); "" when it has none. */
export function pointText(point: XmlElement): string {
  const t = child(point, 'dgm:t');
  if (!t) return '';
  return childElements(t, 'a:p')
    .map((p) =>
      childElements(p)
        .filter((el) => el.name === 'a:r' || el.name === 'a:fld')
        .map((r) => {
          const text = child(r, 'a:t');
          return text ? text.children.map((n) => (n.kind === 'text' ? n.text : '')).join('') : '';
        })
        .join(''),
    )
    .join('\n');
}

/** The relationship id of the drawing part (dsp:dataModelExt/@relId, a relationship of the slide), if any. */
export function drawingRelId(root: XmlElement): string | null {
  const extLst = child(root, 'dgm:extLst');
  for (const ext of extLst ? childElements(extLst, 'a:ext') : []) {
    const dataModelExt = childElements(ext).find((el) => el.name.endsWith(':dataModelExt'));
    const relId = dataModelExt?.attrs['relId'];
    if (relId) return relId;
  }
  return null;
}
