/**
 * A new slide on a layout (payload `type: "layout"`), as PowerPoint makes one: the layout's placeholders
 * (not date, footer or slide number) as empty shapes that inherit geometry and formatting from the layout.
 */
import {
  child,
  cloneElement,
  element,
  XML_DECLARATION,
  type XmlDocument,
  type XmlElement,
} from '../xml/index.js';
import { PML_ROOT_NAMESPACES } from './namespaces.js';
import { layoutPlaceholders, placeholderKey } from './placeholders.js';

const SKIPPED = new Set(['dt', 'ftr', 'sldNum']);

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
  const root = element('p:sld', { ...PML_ROOT_NAMESPACES }, [
    element('p:cSld', {}, [spTree]),
    element('p:clrMapOvr', {}, [element('a:masterClrMapping')]),
  ]);
  return { prolog: XML_DECLARATION, root };
}
