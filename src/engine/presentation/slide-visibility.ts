/**
 * Whether a slide is hidden: `p:sld/@show` false (ECMA-376 Part 1 §19.3.1.38, an xsd:boolean, so "0" or
 * "false"). A hidden slide is skipped in a slide show and gets no page in a PDF (PowerPoint's export, and
 * LibreOffice's as the renderer runs it), so the two must agree on what counts.
 */
import type { XmlElement } from '../xml/index.js';

export function isHiddenSlide(root: XmlElement): boolean {
  return root.attrs.show === '0' || root.attrs.show === 'false';
}
