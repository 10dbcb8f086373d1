/**
 * `{{ key }}` placeholders in text (docs/payload.md "Tags"). PowerPoint splits text into runs at spell-check and
 * edit boundaries (err, dirty, lang, noProof, smtClean, bmk differ; docs/powerpoint-rules.md
 * "Proofing attributes split runs"), so a tag is matched on the concatenated text of consecutive runs; the value
 * goes into the run where the tag begins and keeps its formatting, and the rest of the tag is cut from the runs
 * that follow.
 */
import {
  child,
  childElements,
  cloneElement,
  element,
  stripIllegalXmlChars,
  text,
  type XmlElement,
  type XmlNode,
} from '../xml/index.js';

/** Inner text without braces, so `{{{a}}}` finds `{{a}}` and leaves the outer braces. */
const TAG = /\{\{([^{}]*)\}\}/g;
const NEW_PARAGRAPH = /\r\n|\n|\r/;

export interface TagReport {
  used: Set<string>;
  unknown: Set<string>;
}

export function replaceTags(root: XmlElement, lookup: (key: string) => string | undefined): TagReport {
  const report: TagReport = { used: new Set(), unknown: new Set() };
  // Collect first: replacing may add paragraphs next to the one being edited.
  const paragraphs: { p: XmlElement; parent: XmlElement }[] = [];
  collectParagraphs(root, paragraphs);
  for (const { p, parent } of paragraphs) {
    const changed = replaceInParagraph(p, lookup, report);
    if (changed.some(hasBreak)) splitAtBreaks(p, parent);
  }
  return report;
}

function collectParagraphs(el: XmlElement, out: { p: XmlElement; parent: XmlElement }[]): void {
  for (const c of childElements(el)) {
    if (c.name === 'a:p') out.push({ p: c, parent: el });
    else collectParagraphs(c, out);
  }
}

/** Replaces the tags of one paragraph; returns the runs whose text changed. */
function replaceInParagraph(
  p: XmlElement,
  lookup: (key: string) => string | undefined,
  report: TagReport,
): XmlElement[] {
  const changed: XmlElement[] = [];
  for (const group of runGroups(p)) {
    const texts = group.map(runText);
    const full = texts.join('');
    if (!full.includes('{{')) continue;
    const starts: number[] = [];
    texts.reduce((offset, t) => (starts.push(offset), offset + t.length), 0);
    const runAt = (pos: number): number => {
      let i = starts.length - 1;
      while (i > 0 && starts[i]! > pos) i--;
      // An empty run shares its start with the next one; the character belongs to the non-empty run.
      while (i < texts.length - 1 && pos - starts[i]! >= texts[i]!.length) i++;
      return i;
    };

    const hits: { start: number; end: number; value: string }[] = [];
    for (const match of full.matchAll(TAG)) {
      const key = match[1]!.trim();
      if (key === '') continue;
      const value = lookup(key);
      if (value === undefined) {
        report.unknown.add(key);
        continue;
      }
      report.used.add(key);
      hits.push({ start: match.index, end: match.index + match[0].length, value });
    }
    if (hits.length === 0) continue;

    const startRuns = new Set<number>();
    const touched = new Set<number>();
    // Right to left: an edit only changes text at or after its own start, so earlier offsets stay valid.
    for (const hit of hits.reverse()) {
      const first = runAt(hit.start);
      const last = runAt(hit.end - 1);
      const head = texts[first]!.slice(0, hit.start - starts[first]!);
      const tail = texts[last]!.slice(hit.end - starts[last]!);
      if (first === last) {
        texts[first] = head + hit.value + tail;
      } else {
        texts[first] = head + hit.value;
        for (let k = first + 1; k < last; k++) texts[k] = '';
        texts[last] = tail;
      }
      startRuns.add(first);
      for (let k = first; k <= last; k++) touched.add(k);
    }

    for (const k of touched) {
      const run = group[k]!;
      if (!startRuns.has(k) && texts[k] === '') {
        p.children.splice(p.children.indexOf(run), 1);
        continue;
      }
      setRunText(run, texts[k]!);
      changed.push(run);
    }
  }
  return changed;
}

/** Runs of consecutive a:r; a:br and a:fld (field text is computed by PowerPoint) end a group. */
function runGroups(p: XmlElement): XmlElement[][] {
  const groups: XmlElement[][] = [];
  let current: XmlElement[] = [];
  for (const el of childElements(p)) {
    if (el.name === 'a:r') {
      current.push(el);
    } else if (current.length > 0) {
      groups.push(current);
      current = [];
    }
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

function runText(run: XmlElement): string {
  const t = child(run, 'a:t');
  if (!t) return '';
  return t.children.map((n) => (n.kind === 'text' ? n.text : '')).join('');
}

function setRunText(run: XmlElement, value: string): void {
  let t = child(run, 'a:t');
  if (!t) {
    t = element('a:t');
    run.children.push(t);
  }
  t.children = [text(value)];
  // The proofing flags described the old text (docs/powerpoint-rules.md "Proofing attributes split runs").
  const rPr = child(run, 'a:rPr');
  if (rPr) {
    delete rPr.attrs['err'];
    delete rPr.attrs['dirty'];
  }
}

function hasBreak(run: XmlElement): boolean {
  return /[\r\n\v]/.test(runText(run));
}

/**
 * A `\n` in a value starts a new paragraph (cloning this paragraph's pPr and endParaRPr); a `\v` becomes a
 * line break. Characters XML cannot hold are dropped from the changed runs.
 */
function splitAtBreaks(p: XmlElement, parent: XmlElement): void {
  const pPr = child(p, 'a:pPr');
  const endParaRPr = child(p, 'a:endParaRPr');
  const lines: XmlNode[][] = [[]];
  for (const node of p.children) {
    if (node === pPr || node === endParaRPr) continue;
    if (node.kind !== 'element' || node.name !== 'a:r' || !hasBreak(node)) {
      lines[lines.length - 1]!.push(node);
      continue;
    }
    const rPr = child(node, 'a:rPr');
    runText(node)
      .split(NEW_PARAGRAPH)
      .forEach((line, i) => {
        if (i > 0) lines.push([]);
        const target = lines[lines.length - 1]!;
        line.split('\v').forEach((part, k) => {
          if (k > 0) target.push(element('a:br', {}, rPr ? [cloneElement(rPr)] : []));
          const clean = stripIllegalXmlChars(part);
          if (clean === '') return;
          const run = cloneElement(node);
          setRunText(run, clean);
          target.push(run);
        });
      });
  }
  const paragraphs = lines.map((content, i) => {
    const para = i === 0 ? p : element('a:p', { ...p.attrs });
    para.children = [
      ...(pPr ? [i === 0 ? pPr : cloneElement(pPr)] : []),
      ...content,
      ...(endParaRPr ? [i === 0 ? endParaRPr : cloneElement(endParaRPr)] : []),
    ];
    return para;
  });
  parent.children.splice(parent.children.indexOf(p) + 1, 0, ...paragraphs.slice(1));
}
