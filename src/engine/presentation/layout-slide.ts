/**
 * A new slide on a layout (payload `type: "layout"`), as PowerPoint makes one: the layout's placeholders
 * (not date, footer or slide number) as empty shapes that inherit geometry and formatting from the layout.
 */
import { child, cloneElement, element, type XmlDocument, type XmlElement } from '../xml/index.js';
import { layoutPlaceholders, placeholderKey } from './placeholders.js';

const SKIPPED = new Set(['dt', 'ftr', 'sldNum']);
const NS = {
  'xmlns:a': 'http://schemas.openxmlformats.org/drawingml/2006/main',
  'xmlns:r': 'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
  'xmlns:p': 'http://schemas.openxmlformats.org/presentationml/2006/main',
};

export function newLayoutSlide(layoutRoot: XmlElement): XmlDocument {
  const shapes: XmlElement[] = [];
  for (const placeholder of layoutPlaceholders(layoutRoot)) {
    const key = placeholderKey(placeholder);
    if (!key || SKIPPED.has(key.type) || placeholder.name !== 'p:sp') continue;
    const nvSpPr = child(placeholder, 'p:nvSpPr');
    if (!nvSpPr) continue;
    const nv = cloneElement(nvSpPr);
    const sp = element('p:sp', {}, [nv, element('p:spPr')]);
    if (key.type !== 'pic') {
      sp.children.push(
        element('p:txBody', {}, [
          element('a:bodyPr'),
          element('a:lstStyle'),
          element('a:p', {}, [element('a:endParaRPr', { lang: 'en-US' })]),
        ]),
      );
    }
    shapes.push(sp);
  }
  const spTree = element('p:spTree', {}, [
    element('p:nvGrpSpPr', {}, [
      element('p:cNvPr', { id: '1', name: '' }),
      element('p:cNvGrpSpPr'),
      element('p:nvPr'),
    ]),
    element('p:grpSpPr', {}, [
      element('a:xfrm', {}, [
        element('a:off', { x: '0', y: '0' }),
        element('a:ext', { cx: '0', cy: '0' }),
        element('a:chOff', { x: '0', y: '0' }),
        element('a:chExt', { cx: '0', cy: '0' }),
      ]),
    ]),
    ...shapes,
  ]);
  const root = element('p:sld', { ...NS }, [
    element('p:cSld', {}, [spTree]),
    element('p:clrMapOvr', {}, [element('a:masterClrMapping')]),
  ]);
  return { prolog: '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n', root };
}
