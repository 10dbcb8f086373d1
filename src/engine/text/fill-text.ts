/**
 * Replacing the text of a text body (`p:txBody`, `a:txBody`) while keeping the template's formatting
 * (docs/payload.md "Text"): paragraph i takes the paragraph and first-run formatting of the template's
 * paragraph i (the last one for any beyond), so bullet levels and styles carry over.
 */
import type { Warning } from '../errors.js';
import type { Hyperlink, Paragraph, Run, TextContent } from '../payload/model.js';
import {
  child,
  childElements,
  cloneElement,
  element,
  removeNode,
  stripIllegalXmlChars,
  text,
  type XmlElement,
} from '../xml/index.js';
import { applyParagraphProps } from './paragraph-properties.js';
import { buildRunProperties } from './run-properties.js';
import { append } from '../arrays.js';

export interface FillTextContext {
  path: string;
  addHyperlink(link: Hyperlink): string;
  warnings: Warning[];
}

/** What a template paragraph lends to the paragraph written in its place. */
interface ParagraphTemplate {
  pPr: XmlElement | undefined;
  /** The first run's rPr; for a paragraph without runs, its endParaRPr. */
  runBase: XmlElement | undefined;
  endParaRPr: XmlElement | undefined;
}

const NEW_PARAGRAPH = /\r\n|\n|\r/;
/**
 * PowerPoint reports soft line breaks as \v; in a:t it is illegal and triggers repair (docs/powerpoint-rules.md
 * "Characters in text").
 */
const LINE_BREAK = '\v';

/** A plain string as text content: `\n` starts a new paragraph; "" empties the body. */
export function textContentFromString(value: string): TextContent {
  return {
    kind: 'text',
    fromRuns: false,
    paragraphs: value
      .split(NEW_PARAGRAPH)
      .map((line) => ({ props: {}, runs: line === '' ? [] : [{ text: line, props: {} }] })),
  };
}

export function fillText(txBody: XmlElement, content: TextContent, ctx: FillTextContext): void {
  const oldParagraphs = childElements(txBody, 'a:p');
  const templates = oldParagraphs.map(templateOf);
  if (templates.length === 0) templates.push({ pPr: undefined, runBase: undefined, endParaRPr: undefined });

  let stripped = 0;
  const paragraphs = splitParagraphs(content.paragraphs).map((paragraph, i) => {
    const template = templates[Math.min(i, templates.length - 1)]!;
    const { p, strippedChars } = buildParagraph(paragraph, template, ctx);
    stripped += strippedChars;
    return p;
  });

  for (const p of oldParagraphs) removeNode(txBody, p);
  // A txBody always has a:bodyPr first and at least one a:p (docs/powerpoint-rules.md "Text bodies").
  if (!child(txBody, 'a:bodyPr')) txBody.children.unshift(element('a:bodyPr'));
  append(txBody.children, paragraphs);

  if (stripped > 0) {
    ctx.warnings.push({
      path: ctx.path,
      message: `removed ${stripped} control character(s) that a .pptx cannot hold`,
    });
  }
}

function templateOf(p: XmlElement): ParagraphTemplate {
  const endParaRPr = child(p, 'a:endParaRPr');
  let runBase: XmlElement | undefined;
  for (const el of childElements(p)) {
    if (el.name === 'a:r' || el.name === 'a:fld' || el.name === 'a:br') {
      runBase = child(el, 'a:rPr');
      break;
    }
  }
  return { pPr: child(p, 'a:pPr'), runBase: runBase ?? endParaRPr, endParaRPr };
}

/** A `\n` inside a run's text also starts a new paragraph, with the same paragraph properties. */
function splitParagraphs(paragraphs: readonly Paragraph[]): Paragraph[] {
  const result: Paragraph[] = [];
  for (const paragraph of paragraphs) {
    let current: Paragraph = { props: paragraph.props, runs: [] };
    result.push(current);
    for (const run of paragraph.runs) {
      // Most runs hold one line: no regex split (a table of 2 000 rows writes 12 000 runs).
      const lines =
        run.text.includes('\n') || run.text.includes('\r') ? run.text.split(NEW_PARAGRAPH) : [run.text];
      lines.forEach((line, k) => {
        if (k > 0) {
          current = { props: paragraph.props, runs: [] };
          result.push(current);
        }
        if (line !== '') current.runs.push({ text: line, props: run.props });
      });
    }
  }
  if (result.length === 0) result.push({ props: {}, runs: [] });
  return result;
}

function buildParagraph(
  paragraph: Paragraph,
  template: ParagraphTemplate,
  ctx: FillTextContext,
): { p: XmlElement; strippedChars: number } {
  const p = element('a:p');
  const pPr = template.pPr ? cloneElement(template.pPr) : element('a:pPr');
  applyParagraphProps(pPr, paragraph.props);
  if (Object.keys(pPr.attrs).length > 0 || childElements(pPr).length > 0) p.children.push(pPr);

  let strippedChars = 0;
  let written = 0;
  for (const run of paragraph.runs) {
    const { nodes, stripped } = runNodes(run, template, ctx);
    append(p.children, nodes);
    strippedChars += stripped;
    written += nodes.length;
  }

  // endParaRPr stays last (docs/powerpoint-rules.md "Text bodies"). An emptied paragraph still needs it to keep
  // its formatting for whoever types into it next.
  const end = template.endParaRPr ?? (written === 0 ? template.runBase : undefined);
  if (end) {
    const endParaRPr = cloneElement(end);
    endParaRPr.name = 'a:endParaRPr';
    for (const stale of ['err', 'dirty']) if (stale in endParaRPr.attrs) delete endParaRPr.attrs[stale];
    p.children.push(endParaRPr);
  }
  return { p, strippedChars };
}

/** One a:r per line of the run, with an a:br (same formatting) between lines split by `\v`. */
function runNodes(
  run: Run,
  template: ParagraphTemplate,
  ctx: FillTextContext,
): { nodes: XmlElement[]; stripped: number } {
  const rPr = buildRunProperties(template.runBase, run.props, ctx);
  const nodes: XmlElement[] = [];
  let stripped = 0;
  run.text.split(LINE_BREAK).forEach((line, k) => {
    if (k > 0) nodes.push(element('a:br', {}, [cloneElement(rPr)]));
    const clean = stripIllegalXmlChars(line);
    stripped += line.length - clean.length;
    if (clean !== '') nodes.push(element('a:r', {}, [cloneElement(rPr), element('a:t', {}, [text(clean)])]));
  });
  return { nodes, stripped };
}
