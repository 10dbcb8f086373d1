/** What `inspect` says of a SmartArt graphic: its nodes' texts in text-pane order (diagram-nodes.ts). */
import type { XmlElement } from '../xml/index.js';
import { child, childElements } from '../xml/index.js';
import { pointText, readDataModel } from './diagram-nodes.js';

export interface DiagramReader {
  /** The part a relationship of the slide points at, or null. */
  target(relId: string): string | null;
  has(partName: string): boolean;
  xml(partName: string): XmlElement;
}

export function diagramNodes(
  frame: XmlElement,
  reader: DiagramReader,
): { text: string; level: number }[] | null {
  const graphic = child(frame, 'a:graphic');
  const graphicData = graphic && child(graphic, 'a:graphicData');
  const relIds = graphicData && childElements(graphicData).find((el) => el.name.endsWith(':relIds'));
  const dm = relIds?.attrs['r:dm'];
  const part = dm ? reader.target(dm) : null;
  if (!part || !reader.has(part)) return null;
  const model = readDataModel(reader.xml(part));
  return model ? model.nodes.map((node) => ({ text: pointText(node.point), level: node.level })) : null;
}
