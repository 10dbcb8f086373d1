import type { Relationship } from './opc-package.js';
import type { TreeElement } from './xml-tree.js';
export type Report = (kind: string, part: string, message: string) => void;
export declare function checkPartXml(part: string, root: TreeElement, rels: readonly Relationship[], report: Report): void;
