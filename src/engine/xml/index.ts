/** The engine's only XML door: parse (no DTDs), serialise, build and query the tree. */
export type { XmlDocument, XmlElement, XmlNode, XmlText, XmlVerbatim } from './node.js';
export type { AttributeSpan } from './parse.js';
export { element, text, cloneElement, cloneDocument } from './node.js';
export { parseXml, checkXml, locateAttribute, decodeEntities } from './parse.js';
export {
  serializeXml,
  XML_DECLARATION,
  serializeElement,
  escapeText,
  escapeAttribute,
  stripIllegalXmlChars,
} from './serialize.js';
export {
  localName,
  child,
  childElements,
  descendants,
  firstDescendant,
  textContent,
  insertInOrder,
  removeNode,
} from './query.js';
