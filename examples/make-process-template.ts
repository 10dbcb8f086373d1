/**
 * Writes examples/process.pptx, the template of the SmartArt example in docs/payload.md (the pieces it is made of
 * are in template-kit.ts):
 *   npx tsx examples/make-process-template.ts [FOLDER]   (examples/ unless FOLDER is given)
 *
 * Slides:
 *   0 "Title Slide": "Title", "Subtitle"
 *   1 "Title Only": "Title", "Diagram 1" (a SmartArt graphic, PowerPoint's "Basic Block List": four blocks in a
 *     row, "Discover", "Design", "Deliver" and "Support")
 *
 * A SmartArt graphic is five parts (ECMA-376 Part 1, §21.4 DrawingML - Diagrams): the data model (the nodes and
 * their texts, what PowerPoint reads), the layout, quick style and colour definitions it names, and the drawing
 * (the shapes as last laid out, what LibreOffice and other viewers draw).
 */
import { writeFileSync } from 'node:fs';
import {
  DECKFORGE_COLOURS,
  para,
  placeholder,
  PRE,
  REL,
  slide,
  TITLE_LAYOUT,
  writeDeck,
  type Layout,
  type Relationship,
} from './template-kit.js';
import { outputFolder } from './output-folder.js';

const DGM = 'http://schemas.openxmlformats.org/drawingml/2006/diagram';
const DSP = 'http://schemas.microsoft.com/office/drawing/2008/diagram';
const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const CT = 'application/vnd.openxmlformats-officedocument.drawingml';
const LAYOUT_ID = 'urn:microsoft.com/office/officeart/2005/8/layout/default';

const NODES = ['Discover', 'Design', 'Deliver', 'Support'];

/** The data model's ids: upper-case GUIDs in braces, `kind` telling the points apart. */
const id = (kind: string, i: number): string =>
  `{6A1F3C2E-5B7D-4E90-8C14-${kind}${String(i).padStart(12 - kind.length, '0')}}`;
const DOC = id('D', 0);
const DOC_PRES = id('E', 0);

const EMPTY_TEXT = '<dgm:t><a:bodyPr/><a:lstStyle/><a:p><a:endParaRPr lang="en-US"/></a:p></dgm:t>';

/** The nodes in a row across the frame, spaced as "Basic Block List" spaces them (a tenth of a block). */
const FRAME = { x: 838200, y: 2286000, cx: 10515600, cy: 2743200 };
const BLOCK_WIDTH = Math.floor(FRAME.cx / (NODES.length + (NODES.length - 1) * 0.1));
const BLOCK_HEIGHT = Math.round(BLOCK_WIDTH * 0.6);
const GAP = Math.floor((FRAME.cx - NODES.length * BLOCK_WIDTH) / (NODES.length - 1));
const BLOCK_TOP = Math.round((FRAME.cy - BLOCK_HEIGHT) / 2);

const dataModel =
  `${PRE}<dgm:dataModel xmlns:dgm="${DGM}" xmlns:a="${A}"><dgm:ptLst>` +
  `<dgm:pt modelId="${DOC}" type="doc"><dgm:prSet loTypeId="${LAYOUT_ID}" loCatId="list" qsTypeId="urn:microsoft.com/office/officeart/2005/8/quickstyle/simple1" qsCatId="simple" csTypeId="urn:microsoft.com/office/officeart/2005/8/colors/accent1_2" csCatId="accent1" phldr="1"/><dgm:spPr/>${EMPTY_TEXT}</dgm:pt>` +
  NODES.map(
    (text, i) =>
      `<dgm:pt modelId="${id('A', i)}"><dgm:prSet phldrT="[Text]"/><dgm:spPr/><dgm:t><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US"/><a:t>${text}</a:t></a:r></a:p></dgm:t></dgm:pt>` +
      `<dgm:pt modelId="${id('B', i)}" type="parTrans" cxnId="${id('C', i)}"><dgm:prSet/><dgm:spPr/>${EMPTY_TEXT}</dgm:pt>` +
      `<dgm:pt modelId="${id('F', i)}" type="sibTrans" cxnId="${id('C', i)}"><dgm:prSet/><dgm:spPr/>${EMPTY_TEXT}</dgm:pt>` +
      `<dgm:pt modelId="${id('9', i)}" type="pres"><dgm:prSet presAssocID="${id('A', i)}" presName="node" presStyleLbl="node1" presStyleIdx="${i}" presStyleCnt="${NODES.length}"/><dgm:spPr/></dgm:pt>`,
  ).join('') +
  `<dgm:pt modelId="${DOC_PRES}" type="pres"><dgm:prSet presAssocID="${DOC}" presName="diagram" presStyleCnt="0"/><dgm:spPr/></dgm:pt>` +
  '</dgm:ptLst><dgm:cxnLst>' +
  NODES.map(
    (_, i) =>
      `<dgm:cxn modelId="${id('C', i)}" srcId="${DOC}" destId="${id('A', i)}" srcOrd="${i}" destOrd="0" parTransId="${id('B', i)}" sibTransId="${id('F', i)}"/>` +
      `<dgm:cxn modelId="${id('7', i)}" type="presOf" srcId="${id('A', i)}" destId="${id('9', i)}" srcOrd="0" destOrd="0" presId="${LAYOUT_ID}"/>` +
      `<dgm:cxn modelId="${id('8', i)}" type="presParOf" srcId="${DOC_PRES}" destId="${id('9', i)}" srcOrd="${i}" destOrd="0" presId="${LAYOUT_ID}"/>`,
  ).join('') +
  `<dgm:cxn modelId="${id('6', 0)}" type="presOf" srcId="${DOC}" destId="${DOC_PRES}" srcOrd="0" destOrd="0" presId="${LAYOUT_ID}"/>` +
  '</dgm:cxnLst><dgm:bg/><dgm:whole/>' +
  `<dgm:extLst><a:ext uri="http://schemas.microsoft.com/office/drawing/2008/diagram"><dsp:dataModelExt xmlns:dsp="${DSP}" relId="rId6" minVer="http://schemas.openxmlformats.org/drawingml/2006/diagram"/></a:ext></dgm:extLst>` +
  '</dgm:dataModel>';

function block(text: string, i: number): string {
  const place = `<a:off x="${i * (BLOCK_WIDTH + GAP)}" y="${BLOCK_TOP}"/><a:ext cx="${BLOCK_WIDTH}" cy="${BLOCK_HEIGHT}"/>`;
  return (
    `<dsp:sp modelId="${id('9', i)}"><dsp:nvSpPr><dsp:cNvPr id="0" name=""/><dsp:cNvSpPr/></dsp:nvSpPr>` +
    `<dsp:spPr><a:xfrm>${place}</a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom>` +
    '<a:solidFill><a:schemeClr val="accent1"/></a:solidFill><a:ln w="12700"><a:solidFill><a:schemeClr val="lt1"/></a:solidFill></a:ln></dsp:spPr>' +
    '<dsp:style><a:lnRef idx="2"><a:scrgbClr r="0" g="0" b="0"/></a:lnRef><a:fillRef idx="1"><a:scrgbClr r="0" g="0" b="0"/></a:fillRef><a:effectRef idx="0"><a:scrgbClr r="0" g="0" b="0"/></a:effectRef><a:fontRef idx="minor"><a:schemeClr val="lt1"/></a:fontRef></dsp:style>' +
    '<dsp:txBody><a:bodyPr spcFirstLastPara="0" vert="horz" wrap="square" lIns="91440" tIns="91440" rIns="91440" bIns="91440" numCol="1" spcCol="1270" anchor="ctr" anchorCtr="0"><a:noAutofit/></a:bodyPr><a:lstStyle/>' +
    `<a:p><a:pPr algn="ctr"/><a:r><a:rPr lang="en-US" sz="2800"><a:solidFill><a:schemeClr val="lt1"/></a:solidFill></a:rPr><a:t>${text}</a:t></a:r></a:p>` +
    `</dsp:txBody><dsp:txXfrm>${place}</dsp:txXfrm></dsp:sp>`
  );
}

const drawing =
  `${PRE}<dsp:drawing xmlns:dgm="${DGM}" xmlns:dsp="${DSP}" xmlns:a="${A}"><dsp:spTree>` +
  '<dsp:nvGrpSpPr><dsp:cNvPr id="0" name=""/><dsp:cNvGrpSpPr/></dsp:nvGrpSpPr><dsp:grpSpPr/>' +
  NODES.map(block).join('') +
  '</dsp:spTree></dsp:drawing>';

/** "Basic Block List": a snake of rectangles, one per node. */
const layoutDef =
  `${PRE}<dgm:layoutDef xmlns:dgm="${DGM}" xmlns:a="${A}" xmlns:r="${REL}" uniqueId="${LAYOUT_ID}">` +
  '<dgm:title val=""/><dgm:desc val=""/><dgm:catLst><dgm:cat type="list" pri="400"/></dgm:catLst>' +
  '<dgm:layoutNode name="diagram"><dgm:alg type="snake"/><dgm:shape r:blip=""><dgm:adjLst/></dgm:shape>' +
  '<dgm:forEach name="Name0" axis="ch" ptType="node"><dgm:layoutNode name="node"><dgm:alg type="tx"/>' +
  '<dgm:shape type="rect" r:blip=""><dgm:adjLst/></dgm:shape></dgm:layoutNode></dgm:forEach></dgm:layoutNode></dgm:layoutDef>';

const quickStyle =
  `${PRE}<dgm:styleDef xmlns:dgm="${DGM}" xmlns:a="${A}" uniqueId="urn:microsoft.com/office/officeart/2005/8/quickstyle/simple1">` +
  '<dgm:title val=""/><dgm:desc val=""/><dgm:catLst><dgm:cat type="simple" pri="10100"/></dgm:catLst>' +
  '<dgm:styleLbl name="node1"/></dgm:styleDef>';

const colours =
  `${PRE}<dgm:colorsDef xmlns:dgm="${DGM}" xmlns:a="${A}" uniqueId="urn:microsoft.com/office/officeart/2005/8/colors/accent1_2">` +
  '<dgm:title val=""/><dgm:desc val=""/><dgm:catLst><dgm:cat type="accent1" pri="11200"/></dgm:catLst>' +
  '<dgm:styleLbl name="node1"><dgm:fillClrLst meth="repeat"><a:schemeClr val="accent1"/></dgm:fillClrLst></dgm:styleLbl></dgm:colorsDef>';

const diagramFrame =
  '<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="3" name="Diagram 1" descr="Our process: Discover, Design, Deliver, Support"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>' +
  `<p:xfrm><a:off x="${FRAME.x}" y="${FRAME.y}"/><a:ext cx="${FRAME.cx}" cy="${FRAME.cy}"/></p:xfrm>` +
  `<a:graphic><a:graphicData uri="${DGM}"><dgm:relIds xmlns:dgm="${DGM}" r:dm="rId2" r:lo="rId3" r:qs="rId4" r:cs="rId5"/></a:graphicData></a:graphic></p:graphicFrame>`;

const TITLE_ONLY_LAYOUT: Layout = {
  name: 'Title Only',
  type: 'titleOnly',
  shapes: placeholder(2, 'Title 1', '<p:ph type="title"/>', '', [para('Click to edit title')]),
};

const diagramRels: Relationship[] = [
  ['rId2', `${REL}/diagramData`, '../diagrams/data1.xml'],
  ['rId3', `${REL}/diagramLayout`, '../diagrams/layout1.xml'],
  ['rId4', `${REL}/diagramQuickStyle`, '../diagrams/quickStyle1.xml'],
  ['rId5', `${REL}/diagramColors`, '../diagrams/colors1.xml'],
  [
    'rId6',
    'http://schemas.microsoft.com/office/2007/relationships/diagramDrawing',
    '../diagrams/drawing1.xml',
  ],
];

const bytes = writeDeck({
  themeName: 'Deckforge Process',
  colours: DECKFORGE_COLOURS,
  layouts: [TITLE_LAYOUT, TITLE_ONLY_LAYOUT],
  slides: [
    {
      xml: slide(
        placeholder(2, 'Title', '<p:ph type="ctrTitle"/>', '', [para('How we work')]) +
          placeholder(3, 'Subtitle', '<p:ph type="subTitle" idx="1"/>', '', [
            para('From the first call to the years after launch'),
          ]),
      ),
      layout: 1,
    },
    {
      xml: slide(placeholder(2, 'Title', '<p:ph type="title"/>', '', [para('Our process')]) + diagramFrame),
      layout: 2,
      rels: diagramRels,
    },
  ],
  parts: [
    { name: 'ppt/diagrams/data1.xml', data: dataModel, contentType: `${CT}.diagramData+xml` },
    { name: 'ppt/diagrams/layout1.xml', data: layoutDef, contentType: `${CT}.diagramLayout+xml` },
    { name: 'ppt/diagrams/quickStyle1.xml', data: quickStyle, contentType: `${CT}.diagramStyle+xml` },
    { name: 'ppt/diagrams/colors1.xml', data: colours, contentType: `${CT}.diagramColors+xml` },
    {
      name: 'ppt/diagrams/drawing1.xml',
      data: drawing,
      contentType: 'application/vnd.ms-office.drawingml.diagramDrawing+xml',
    },
  ],
});
const target = new URL('process.pptx', outputFolder());
writeFileSync(target, bytes);
console.log(`wrote ${target.pathname} (${bytes.length} bytes)`);
