import { type TreeElement } from './xml-tree.js';
export interface Relationship {
    id: string;
    type: string;
    target: string;
    external: boolean;
    /** Resolved part name for internal targets ('/ppt/slideLayouts/slideLayout1.xml'). */
    targetPart: string | undefined;
}
export interface OpcPackage {
    /** ZIP item name -> bytes, as stored (directory entries included). */
    entries: Map<string, Uint8Array>;
    /** Part name (lower-cased) -> part name as written, for case-insensitive existence checks [OPC-equiv]. */
    partsByLowerName: Map<string, string>;
    defaults: Map<string, string>;
    overrides: Map<string, string>;
    /** Source part name ('/' for package rels) -> relationships of its .rels part. */
    rels: Map<string, Relationship[]>;
}
export declare const CONTENT_TYPES = "[Content_Types].xml";
export declare const RT_BASE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
export declare function partNameOf(itemName: string): string;
export declare function isRelsPart(partName: string): boolean;
/** '/ppt/slides/_rels/slide1.xml.rels' -> '/ppt/slides/slide1.xml'; '/_rels/.rels' -> '/'. */
export declare function sourceOfRelsPart(relsPart: string): string;
/** Resolves an internal target against the source part's folder; a leading '/' is package-absolute. */
export declare function resolveTarget(sourcePart: string, target: string): string;
export declare function contentTypeOf(pkg: OpcPackage, partName: string): string | undefined;
export declare function readPart(pkg: OpcPackage, partName: string): Uint8Array | undefined;
export declare function readPartTree(pkg: OpcPackage, partName: string): TreeElement | undefined;
export declare function relsOf(pkg: OpcPackage, sourcePart: string): Relationship[];
export declare function relTypeIs(rel: Relationship, shortType: string): boolean;
/**
 * Opens the ZIP and reads content types and every .rels part. Throws when the ZIP does not open;
 * a malformed [Content_Types].xml or .rels part is reported through `problems` instead.
 */
export declare function openPackage(bytes: Uint8Array, problems: (kind: string, part: string, msg: string) => void): OpcPackage;
