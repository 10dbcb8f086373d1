/**
 * A deck with one SmartArt graphic, built part by part on the layouts template (one-slide-deck.ts): three nodes,
 * "Alpha", "Beta" and "Gamma", in the data model (ppt/diagrams/data1.xml) and in the drawing viewers draw
 * (drawing1.xml), with a minimal layout, style and colour definition naming PowerPoint's built-in "Basic Block
 * List" (or "Basic Process" for the process variant). The slide's title is "Process"; the frame is "Diagram 1".
 *
 * Variants (SmartArtVariant): a vertical list of three bars as wide as the frame; `shared`, the last node drawn
 * in the box of the one before; `process`, a row of three boxes with an arrow between each two (transition
 * shapes, as PowerPoint's Basic Process draws them); `scattered`, three boxes at the corners of a triangle.
 */
import { oneSlideDeck, titleShape } from './one-slide-deck.js';

const PRE = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const DGM = 'http://schemas.openxmlformats.org/drawingml/2006/diagram';
const DSP = 'http://schemas.microsoft.com/office/drawing/2008/diagram';
const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const CT = 'application/vnd.openxmlformats-officedocument.drawingml';

export const SMARTART_NODES = ['Alpha', 'Beta', 'Gamma'];

const id = (kind: string, i: number): string =>
  `{00000000-0000-4000-8000-${kind}${String(i).padStart(12 - kind.length, '0')}}`;
const DOC = id('D', 0);
const LAYOUT_ID = {
  list: 'urn:microsoft.com/office/officeart/2005/8/layout/default',
  process: 'urn:microsoft.com/office/officeart/2005/8/layout/process1',
};

export type SmartArtVariant = 'list' | 'shared' | 'process' | 'scattered';

const layoutOf = (variant: SmartArtVariant): string =>
  variant === 'process' ? LAYOUT_ID.process : LAYOUT_ID.list;
const DOC_PRES = id('E', 0);

const body = (text: string): string =>
  `<a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US"/><a:t>${text}</a:t></a:r></a:p>`;

/** The points and connections; `shared`: the last node is drawn in the box of the node before it. */
function data(variant: SmartArtVariant): string {
  const shared = variant === 'shared';
  const layout = layoutOf(variant);
  const presId = `presId="${layout}"`;
  // Basic Process draws an arrow (a sibTrans presentation point) after each node but the last.
  const arrows = variant === 'process' ? SMARTART_NODES.length - 1 : 0;
  const points = SMARTART_NODES.map(
    (text, i) =>
      `<dgm:pt modelId="${id('A', i)}"><dgm:prSet phldrT="[Text]"/><dgm:spPr/><dgm:t>${body(text)}</dgm:t></dgm:pt>` +
      `<dgm:pt modelId="${id('B', i)}" type="parTrans" cxnId="${id('C', i)}"><dgm:prSet/><dgm:spPr/><dgm:t><a:bodyPr/><a:lstStyle/><a:p><a:endParaRPr lang="en-US"/></a:p></dgm:t></dgm:pt>` +
      `<dgm:pt modelId="${id('F', i)}" type="sibTrans" cxnId="${id('C', i)}"><dgm:prSet/><dgm:spPr/><dgm:t><a:bodyPr/><a:lstStyle/><a:p><a:endParaRPr lang="en-US"/></a:p></dgm:t></dgm:pt>` +
      (shared && i === 2
        ? ''
        : `<dgm:pt modelId="${id('9', i)}" type="pres"><dgm:prSet presAssocID="${id('A', i)}" presName="node" presStyleLbl="node1" presStyleIdx="${i}" presStyleCnt="3"/><dgm:spPr/></dgm:pt>`) +
      (i < arrows
        ? `<dgm:pt modelId="${id('5', i)}" type="pres"><dgm:prSet presAssocID="${id('F', i)}" presName="sibTrans" presStyleLbl="sibTrans2D1" presStyleIdx="${i}" presStyleCnt="${arrows}"/><dgm:spPr/></dgm:pt>`
        : ''),
  ).join('');
  // The presentation tree's order: node, its arrow, the next node, …
  const order = (i: number, arrow = false): number => (arrows > 0 ? 2 * i + (arrow ? 1 : 0) : i);
  const connections = SMARTART_NODES.map(
    (_, i) =>
      `<dgm:cxn modelId="${id('C', i)}" srcId="${DOC}" destId="${id('A', i)}" srcOrd="${i}" destOrd="0" parTransId="${id('B', i)}" sibTransId="${id('F', i)}"/>` +
      `<dgm:cxn modelId="${id('7', i)}" type="presOf" srcId="${id('A', i)}" destId="${id('9', shared && i === 2 ? 1 : i)}" srcOrd="${shared && i === 2 ? 1 : 0}" destOrd="0" ${presId}/>` +
      (shared && i === 2
        ? ''
        : `<dgm:cxn modelId="${id('8', i)}" type="presParOf" srcId="${DOC_PRES}" destId="${id('9', i)}" srcOrd="${order(i)}" destOrd="0" ${presId}/>`) +
      (i < arrows
        ? `<dgm:cxn modelId="${id('4', i)}" type="presOf" srcId="${id('F', i)}" destId="${id('5', i)}" srcOrd="0" destOrd="0" ${presId}/>` +
          `<dgm:cxn modelId="${id('3', i)}" type="presParOf" srcId="${DOC_PRES}" destId="${id('5', i)}" srcOrd="${order(i, true)}" destOrd="0" ${presId}/>`
        : ''),
  ).join('');
  return (
    `${PRE}<dgm:dataModel xmlns:dgm="${DGM}" xmlns:a="${A}"><dgm:ptLst>` +
    `<dgm:pt modelId="${DOC}" type="doc"><dgm:prSet loTypeId="${layout}" loCatId="${variant === 'process' ? 'process' : 'list'}" qsTypeId="urn:microsoft.com/office/officeart/2005/8/quickstyle/simple1" qsCatId="simple" csTypeId="urn:microsoft.com/office/officeart/2005/8/colors/accent1_2" csCatId="accent1" phldr="1"/><dgm:spPr/><dgm:t><a:bodyPr/><a:lstStyle/><a:p><a:endParaRPr lang="en-US"/></a:p></dgm:t></dgm:pt>` +
    points +
    `<dgm:pt modelId="${DOC_PRES}" type="pres"><dgm:prSet presAssocID="${DOC}" presName="diagram" presStyleCnt="0"/><dgm:spPr/></dgm:pt>` +
    `</dgm:ptLst><dgm:cxnLst>${connections}` +
    `<dgm:cxn modelId="${id('6', 0)}" type="presOf" srcId="${DOC}" destId="${DOC_PRES}" srcOrd="0" destOrd="0" ${presId}/>` +
    '</dgm:cxnLst><dgm:bg/><dgm:whole/>' +
    `<dgm:extLst><a:ext uri="http://schemas.microsoft.com/office/drawing/2008/diagram"><dsp:dataModelExt xmlns:dsp="${DSP}" relId="rId6" minVer="http://schemas.openxmlformats.org/drawingml/2006/diagram"/></a:ext></dgm:extLst>` +
    '</dgm:dataModel>'
  );
}

/** Where each variant draws its three boxes: x, y, width, height. */
const BOXES: Record<SmartArtVariant, [number, number, number, number][]> = {
  list: [0, 1, 2].map((i) => [0, 200000 + i * 1100000, 4000000, 1000000]),
  shared: [0, 1].map((i) => [0, 200000 + i * 1100000, 4000000, 1000000]),
  process: [0, 1, 2].map((i) => [i * 1400000, 1400000, 1000000, 600000]),
  scattered: [
    [1400000, 200000, 1200000, 800000],
    [2600000, 2000000, 1200000, 800000],
    [200000, 2000000, 1200000, 800000],
  ],
};

/** A drawn shape: its box, its geometry and fill, its text (one paragraph per line) at `sz`. */
function shape(
  modelId: string,
  [x, y, cx, cy]: readonly number[],
  geometry: string,
  lines: readonly string[],
  sz: number,
): string {
  const xfrm = `<a:off x="${x}" y="${y}"/><a:ext cx="${cx}" cy="${cy}"/>`;
  const paragraphs = lines.length
    ? lines
        .map(
          (text) =>
            `<a:p><a:pPr algn="ctr"/><a:r><a:rPr lang="en-US" sz="${sz}"><a:solidFill><a:srgbClr val="FFFFFF"/></a:solidFill></a:rPr><a:t>${text}</a:t></a:r></a:p>`,
        )
        .join('')
    : `<a:p><a:pPr algn="ctr"/><a:endParaRPr lang="en-US" sz="${sz}"/></a:p>`;
  return (
    `<dsp:sp modelId="${modelId}"><dsp:nvSpPr><dsp:cNvPr id="0" name=""/><dsp:cNvSpPr/></dsp:nvSpPr>` +
    `<dsp:spPr><a:xfrm>${xfrm}</a:xfrm><a:prstGeom prst="${geometry}"><a:avLst/></a:prstGeom>` +
    '<a:solidFill><a:srgbClr val="4472C4"/></a:solidFill><a:ln><a:noFill/></a:ln></dsp:spPr>' +
    '<dsp:style><a:lnRef idx="2"><a:scrgbClr r="0" g="0" b="0"/></a:lnRef><a:fillRef idx="1"><a:scrgbClr r="0" g="0" b="0"/></a:fillRef><a:effectRef idx="0"><a:scrgbClr r="0" g="0" b="0"/></a:effectRef><a:fontRef idx="minor"><a:schemeClr val="lt1"/></a:fontRef></dsp:style>' +
    `<dsp:txBody><a:bodyPr spcFirstLastPara="0" vert="horz" wrap="square" lIns="91440" tIns="91440" rIns="91440" bIns="91440" numCol="1" spcCol="1270" anchor="ctr" anchorCtr="0"><a:noAutofit/></a:bodyPr><a:lstStyle/>` +
    `${paragraphs}</dsp:txBody><dsp:txXfrm>${xfrm}</dsp:txXfrm></dsp:sp>`
  );
}

function drawing(variant: SmartArtVariant): string {
  const texts = variant === 'shared' ? [['Alpha'], ['Beta', 'Gamma']] : SMARTART_NODES.map((text) => [text]);
  const sz = variant === 'list' || variant === 'shared' ? 2800 : 1800;
  const shapes = texts
    .map((lines, i) => {
      const box = shape(id('9', i), BOXES[variant][i] as number[], 'rect', lines, sz);
      // Basic Process: an arrow in the middle of the gap after each box but the last.
      const [x = 0, y = 0, cx = 0, cy = 0] = BOXES[variant][i] ?? [];
      const arrow =
        variant === 'process' && i < texts.length - 1
          ? shape(id('5', i), [x + cx + 100000, y + cy / 2 - 125000, 200000, 250000], 'rightArrow', [], sz)
          : '';
      return box + arrow;
    })
    .join('');
  return (
    `${PRE}<dsp:drawing xmlns:dgm="${DGM}" xmlns:dsp="${DSP}" xmlns:a="${A}"><dsp:spTree>` +
    '<dsp:nvGrpSpPr><dsp:cNvPr id="0" name=""/><dsp:cNvGrpSpPr/></dsp:nvGrpSpPr><dsp:grpSpPr/>' +
    `${shapes}</dsp:spTree></dsp:drawing>`
  );
}

const layoutDefinition = (variant: SmartArtVariant): string =>
  `${PRE}<dgm:layoutDef xmlns:dgm="${DGM}" xmlns:a="${A}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" uniqueId="${layoutOf(variant)}">` +
  '<dgm:title val=""/><dgm:desc val=""/><dgm:catLst><dgm:cat type="list" pri="400"/></dgm:catLst>' +
  '<dgm:layoutNode name="diagram"><dgm:alg type="snake"/><dgm:shape r:blip=""><dgm:adjLst/></dgm:shape>' +
  '<dgm:forEach name="Name0" axis="ch" ptType="node"><dgm:layoutNode name="node"><dgm:alg type="tx"/>' +
  '<dgm:shape type="rect" r:blip=""><dgm:adjLst/></dgm:shape></dgm:layoutNode></dgm:forEach></dgm:layoutNode></dgm:layoutDef>';

const STYLE =
  `${PRE}<dgm:styleDef xmlns:dgm="${DGM}" xmlns:a="${A}" uniqueId="urn:microsoft.com/office/officeart/2005/8/quickstyle/simple1">` +
  '<dgm:title val=""/><dgm:desc val=""/><dgm:catLst><dgm:cat type="simple" pri="10100"/></dgm:catLst>' +
  '<dgm:styleLbl name="node1"/></dgm:styleDef>';

const COLORS =
  `${PRE}<dgm:colorsDef xmlns:dgm="${DGM}" xmlns:a="${A}" uniqueId="urn:microsoft.com/office/officeart/2005/8/colors/accent1_2">` +
  '<dgm:title val=""/><dgm:desc val=""/><dgm:catLst><dgm:cat type="accent1" pri="11200"/></dgm:catLst>' +
  '<dgm:styleLbl name="node1"><dgm:fillClrLst meth="repeat"><a:schemeClr val="accent1"/></dgm:fillClrLst></dgm:styleLbl></dgm:colorsDef>';

const FRAME =
  '<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="3" name="Diagram 1"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>' +
  '<p:xfrm><a:off x="457200" y="1600200"/><a:ext cx="4000000" cy="3500000"/></p:xfrm>' +
  `<a:graphic><a:graphicData uri="${DGM}"><dgm:relIds xmlns:dgm="${DGM}" r:dm="rId2" r:lo="rId3" r:qs="rId4" r:cs="rId5"/></a:graphicData></a:graphic></p:graphicFrame>`;

const built = new Map<SmartArtVariant, Uint8Array>();

/**
 * The deck; `shared`: "Gamma" is drawn in the box of "Beta" (two boxes, the second listing both), as layouts
 * draw a node's sub-points in one box. Other variants: see the top of this file.
 */
export function smartArtDeck(variant: SmartArtVariant = 'list'): Uint8Array {
  const known = built.get(variant);
  if (known) return known.slice();
  const bytes = oneSlideDeck({
    layout: 6,
    shapes: titleShape('Process') + FRAME,
    rels: [
      ['rId2', 'diagramData', '../diagrams/data1.xml'],
      ['rId3', 'diagramLayout', '../diagrams/layout1.xml'],
      ['rId4', 'diagramQuickStyle', '../diagrams/quickStyle1.xml'],
      ['rId5', 'diagramColors', '../diagrams/colors1.xml'],
      [
        'rId6',
        'http://schemas.microsoft.com/office/2007/relationships/diagramDrawing',
        '../diagrams/drawing1.xml',
      ],
    ],
    parts: {
      'ppt/diagrams/data1.xml': { bytes: data(variant), type: `${CT}.diagramData+xml` },
      'ppt/diagrams/layout1.xml': { bytes: layoutDefinition(variant), type: `${CT}.diagramLayout+xml` },
      'ppt/diagrams/quickStyle1.xml': { bytes: STYLE, type: `${CT}.diagramStyle+xml` },
      'ppt/diagrams/colors1.xml': { bytes: COLORS, type: `${CT}.diagramColors+xml` },
      'ppt/diagrams/drawing1.xml': {
        bytes: drawing(variant),
        type: 'application/vnd.ms-office.drawingml.diagramDrawing+xml',
      },
    },
  });
  built.set(variant, bytes);
  return bytes.slice();
}
