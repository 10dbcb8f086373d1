/**
 * The SmartArt filler (docs/payload.md, SmartArt): one text per node, in the text pane's order, written into the
 * data model's points (dgm:pt/dgm:t) and into the drawing part's shapes that show them (dsp:sp/dsp:txBody,
 * matched by modelId through the presOf connections), because LibreOffice and other viewers draw the drawing
 * part as it is while PowerPoint reads the data model. Nodes past the last text are removed from both, with
 * their connections and transition points; texts past the last node become new top-level nodes where the layout
 * allows it (add-nodes.ts), and are refused with the reason where it does not. The slide owns its own copy of the diagram parts (a cloned slide
 * gets fresh ones, docs/powerpoint-rules.md "What a cloned slide copies and what it shares"), so copies filled
 * differently do not meet.
 */
import { EngineError, type Warning } from '../errors.js';
import type { Hyperlink, ShapeContent, TextContent } from '../payload/model.js';
import { shapeVariants, type FoundShape } from '../shapes/find-shape.js';
import { MAX_DIAGRAM_NODES, tooManyDiagramTexts } from '../payload/shape-request.js';
import { fillText, textContentFromString } from '../text/fill-text.js';
import {
  child,
  childElements,
  element,
  insertInOrder,
  removeNode,
  serializeXml,
  type XmlElement,
} from '../xml/index.js';
import { addNodes } from './add-nodes.js';
import { drawingRelId, readDataModel, type DataModel, type DiagramNode } from './diagram-nodes.js';
import type { Size } from './node-arrangement.js';

/** What the filler may touch: the slide's own diagram parts (the deck builder's owned parts). */
export interface DiagramParts {
  slideTarget(relId: string): { external: false; partName: string } | { external: true } | null;
  has(partName: string): boolean;
  xml(partName: string): { prolog: string; root: XmlElement };
  write(partName: string, data: string): void;
}

export interface DiagramFillContext {
  parts: DiagramParts;
  /** The id of `partName`'s relationship to a run's URL (the data and drawing parts each have their own). */
  addHyperlink(partName: string, url: string): string;
  /** The deck's default text size (1/100 pt, p:defaultTextStyle), the size a drawn run without one shows. */
  defaultFontSize: number;
  warnings: Warning[];
}

/** CT_Pt's children (DrawingML diagram §21.4.3.8) and dsp:sp's (Office 2010 drawing cache) in schema order. */
const PT_ORDER = ['dgm:prSet', 'dgm:spPr', 'dgm:t', 'dgm:extLst'];
const DSP_SP_ORDER = ['dsp:nvSpPr', 'dsp:spPr', 'dsp:style', 'dsp:txBody', 'dsp:txXfrm', 'dsp:extLst'];

export function fillDiagram(
  shape: FoundShape,
  texts: readonly TextContent[],
  path: string,
  ctx: DiagramFillContext,
): void {
  // A list is refused at parse time; a string's (or runs') paragraphs are counted here, before any work.
  if (texts.length > MAX_DIAGRAM_NODES)
    throw new EngineError('LIMIT_EXCEEDED', tooManyDiagramTexts(texts.length), path);
  const { data, drawing } = diagramPartsOf(shape, ctx.parts, path);
  const dataDoc = ctx.parts.xml(data);
  const drawingDoc = drawing ? ctx.parts.xml(drawing) : null;
  let model = readDataModel(dataDoc.root);
  if (!model)
    throw new EngineError('INVALID_TEMPLATE', `SmartArt "${shape.name}" has no data model points`, path);
  let copies: XmlElement[] = [];
  if (texts.length > model.nodes.length) {
    const added = addNodes(
      model,
      drawingDoc?.root ?? null,
      frameSize(shape),
      texts.length - model.nodes.length,
      ctx.defaultFontSize,
    );
    if (typeof added === 'string')
      throw new EngineError(
        'CONTENT_MISMATCH',
        `SmartArt "${shape.name}" holds ${model.nodes.length} node${model.nodes.length === 1 ? '' : 's'} (the lines of ` +
          `its text pane) and ${texts.length} texts were given; new nodes cannot be placed: ${added}; send at most ` +
          `${model.nodes.length}, or add nodes to the template`,
        path,
      );
    copies = added.shapes;
    model = readDataModel(dataDoc.root) as DataModel;
  }
  const { nodes } = model;
  const drawn = drawingDoc ? drawingShapes(drawingDoc.root) : new Map<string, XmlElement>();
  // The text of each part links through that part's own relationships (hlinkClick's r:id, ECMA-376 Part 1
  // §21.1.2.3.5): PowerPoint follows the data model's, LibreOffice and the PDF the drawing's. LibreOffice
  // does not follow a jump to a slide from a SmartArt's drawing (the PDF gets the part's name as a URL).
  const textCtx = (partName: string) => ({
    path,
    addHyperlink: (link: Hyperlink) => {
      if (typeof link !== 'string')
        throw new EngineError(
          'CONTENT_MISMATCH',
          `SmartArt "${shape.name}": links to slides are not supported inside SmartArt (LibreOffice and the PDF ` +
            'do not follow them); a web or mailto link is',
          path,
        );
      return ctx.addHyperlink(partName, link);
    },
    warnings: ctx.warnings,
  });
  const dataText = textCtx(data);
  const drawingText = drawing ? textCtx(drawing) : dataText;
  // A copied box shows what its node says, and nothing of the node it was copied from.
  for (const sp of copies) fillText(drawingBody(sp), textContentFromString(''), drawingText);
  // A drawn shape may show several nodes (a box listing a node's sub-points): it gets their texts in order.
  const shownIn = new Map<string, TextContent[]>();
  nodes.forEach((node, i) => {
    const text = texts[i];
    if (text) fillText(pointBody(node.point), text, dataText);
    for (const id of node.presentations) {
      const shown = shownIn.get(id) ?? [];
      if (text) shown.push(text);
      shownIn.set(id, shown);
    }
  });
  const removed = removeNodes(model, nodes.slice(texts.length), nodes.slice(0, texts.length));
  const spTree = drawingDoc ? child(drawingDoc.root, 'dsp:spTree') : undefined;
  for (const [id, sp] of drawn) if (removed.has(id) && spTree) removeNode(spTree, sp);
  for (const [id, shown] of shownIn) {
    const sp = drawn.get(id);
    if (sp && !removed.has(id)) fillText(drawingBody(sp), joined(shown), drawingText);
  }
  ctx.parts.write(data, serializeXml(dataDoc));
  if (drawing && drawingDoc) ctx.parts.write(drawing, serializeXml(drawingDoc));
}

/** The texts of the nodes one shape shows, as its paragraphs; no node left: one empty paragraph. */
function joined(texts: readonly TextContent[]): TextContent {
  if (texts.length === 0) return textContentFromString('');
  if (texts.length === 1) return texts[0] as TextContent;
  return {
    kind: 'text',
    fromRuns: texts.some((t) => t.fromRuns),
    paragraphs: texts.flatMap((t) => t.paragraphs),
  };
}

/** One text per node: a list's items, or a string's (or runs') paragraphs. */
export function nodeTexts(content: ShapeContent): TextContent[] {
  if (content.kind === 'list') return content.items;
  if (content.kind !== 'string' && content.kind !== 'text')
    throw new RangeError(`nodeTexts: ${content.kind} content`);
  const text = content.kind === 'string' ? textContentFromString(content.value) : content;
  return text.paragraphs.map((paragraph) => ({
    kind: 'text',
    fromRuns: text.fromRuns,
    paragraphs: [paragraph],
  }));
}

function diagramPartsOf(
  shape: FoundShape,
  parts: DiagramParts,
  path: string,
): { data: string; drawing: string | null } {
  for (const frame of shapeVariants(shape)) {
    const graphic = child(frame, 'a:graphic');
    const graphicData = graphic && child(graphic, 'a:graphicData');
    const relIds = graphicData && childElements(graphicData).find((el) => el.name.endsWith(':relIds'));
    const dm = relIds?.attrs['r:dm'];
    const target = dm ? parts.slideTarget(dm) : null;
    if (!target || target.external || !parts.has(target.partName)) continue;
    const drawingRel = drawingRelId(parts.xml(target.partName).root);
    const drawingTarget = drawingRel ? parts.slideTarget(drawingRel) : null;
    const drawing =
      drawingTarget && !drawingTarget.external && parts.has(drawingTarget.partName)
        ? drawingTarget.partName
        : null;
    return { data: target.partName, drawing };
  }
  throw new EngineError(
    'INVALID_TEMPLATE',
    `SmartArt "${shape.name}" has no data model part in the template`,
    path,
  );
}

/** The graphic frame's size (p:xfrm/a:ext), the space its drawing's coordinates live in. */
function frameSize(shape: FoundShape): Size | null {
  for (const frame of shapeVariants(shape)) {
    const xfrm = child(frame, 'p:xfrm');
    const ext = xfrm && child(xfrm, 'a:ext');
    const size = { cx: Number(ext?.attrs['cx']), cy: Number(ext?.attrs['cy']) };
    if (size.cx > 0 && size.cy > 0) return size;
  }
  return null;
}

/** The drawing's shapes by the modelId of the point they draw. */
function drawingShapes(root: XmlElement): Map<string, XmlElement> {
  const result = new Map<string, XmlElement>();
  const spTree = child(root, 'dsp:spTree');
  for (const sp of spTree ? childElements(spTree, 'dsp:sp') : []) {
    const id = sp.attrs['modelId'];
    if (id) result.set(id, sp);
  }
  return result;
}

/** dgm:t of a point, made when the node had no text. */
function pointBody(point: XmlElement): XmlElement {
  const existing = child(point, 'dgm:t');
  if (existing) return existing;
  const body = element('dgm:t', {}, [element('a:bodyPr'), element('a:lstStyle'), element('a:p')]);
  insertInOrder(point, body, PT_ORDER);
  return body;
}

function drawingBody(sp: XmlElement): XmlElement {
  const existing = child(sp, 'dsp:txBody');
  if (existing) return existing;
  const body = element('dsp:txBody', {}, [element('a:bodyPr'), element('a:lstStyle'), element('a:p')]);
  insertInOrder(sp, body, DSP_SP_ORDER);
  return body;
}

/**
 * Removes `gone` nodes with everything hanging on them: the nodes below them, their transition points, the
 * presentation points that drew only them, and every connection naming any of those. The siblings left keep their
 * order, renumbered from 0. Returns the ids removed.
 */
function removeNodes(
  model: DataModel,
  gone: readonly DiagramNode[],
  kept: readonly DiagramNode[],
): Set<string> {
  const removed = new Set<string>(gone.map((n) => n.modelId));
  if (removed.size === 0) return removed;
  const cxns = model.cxnLst ? childElements(model.cxnLst, 'dgm:cxn') : [];
  for (const cxn of cxns) {
    if ((cxn.attrs['type'] ?? 'parOf') !== 'parOf' || !removed.has(cxn.attrs['destId'] ?? '')) continue;
    for (const key of ['parTransId', 'sibTransId', 'modelId']) {
      const id = cxn.attrs[key];
      if (id) removed.add(id);
    }
  }
  // A presentation point that also shows a node still there (a box listing several nodes) stays.
  const shown = new Set(kept.flatMap((node) => node.presentations));
  for (const node of gone) for (const id of node.presentations) if (!shown.has(id)) removed.add(id);
  const points = childElements(model.ptLst, 'dgm:pt');
  for (const pt of points) {
    const prSet = child(pt, 'dgm:prSet');
    const assoc = prSet?.attrs['presAssocID'];
    if (assoc && removed.has(assoc)) removed.add(pt.attrs['modelId'] ?? '');
  }
  for (const pt of points) if (removed.has(pt.attrs['modelId'] ?? '')) removeNode(model.ptLst, pt);
  const keptConnections: XmlElement[] = [];
  for (const cxn of cxns) {
    const named = [cxn.attrs['srcId'], cxn.attrs['destId'], cxn.attrs['modelId']];
    if (named.some((id) => id !== undefined && removed.has(id))) removeNode(model.cxnLst as XmlElement, cxn);
    else keptConnections.push(cxn);
  }
  renumberSiblings(keptConnections);
  return removed;
}

function renumberSiblings(cxns: readonly XmlElement[]): void {
  const bySource = new Map<string, XmlElement[]>();
  for (const cxn of cxns) {
    if ((cxn.attrs['type'] ?? 'parOf') !== 'parOf') continue;
    const src = cxn.attrs['srcId'] ?? '';
    bySource.set(src, [...(bySource.get(src) ?? []), cxn]);
  }
  for (const siblings of bySource.values()) {
    siblings
      .sort((a, b) => Number(a.attrs['srcOrd'] ?? 0) - Number(b.attrs['srcOrd'] ?? 0))
      .forEach((cxn, i) => (cxn.attrs['srcOrd'] = String(i)));
  }
}
