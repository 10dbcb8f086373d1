/**
 * An empty picture (or content) placeholder becomes a picture the way PowerPoint makes one when a picture is
 * inserted into it (docs/powerpoint-rules.md "Picture placeholders"): the `p:sp` turns into a `p:pic` that keeps
 * `p:cNvPr` (id, name, description, hyperlink), the `p:ph` element (so the layout's geometry and formatting still
 * apply) and the shape properties; the prompt text goes. The element is changed in place, so it keeps its z-order
 * and every reference to it stays valid.
 */
import { child, element, type XmlElement, type XmlNode } from '../xml/index.js';
import { newBlipFill } from './blip-fill.js';

export function placeholderToPicture(sp: XmlElement): void {
  const nvSpPr = child(sp, 'p:nvSpPr');
  const cNvPr = (nvSpPr && child(nvSpPr, 'p:cNvPr')) ?? element('p:cNvPr', { id: '0', name: '' });
  const nvPr = (nvSpPr && child(nvSpPr, 'p:nvPr')) ?? element('p:nvPr');
  const picLocks = element('a:picLocks', { noGrp: '1', noChangeAspect: '1' });
  const children: XmlNode[] = [
    element('p:nvPicPr', {}, [cNvPr, element('p:cNvPicPr', {}, [picLocks]), nvPr]),
    newBlipFill('p:blipFill'),
    child(sp, 'p:spPr') ?? element('p:spPr'),
  ];
  // CT_Picture: nvPicPr, blipFill, spPr, style?, extLst?
  for (const name of ['p:style', 'p:extLst']) {
    const kept = child(sp, name);
    if (kept) children.push(kept);
  }
  sp.name = 'p:pic';
  sp.attrs = {};
  sp.children = children;
}
