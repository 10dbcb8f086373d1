/**
 * A deliberately small, namespace-aware XML reader for the test-side package checker.
 *
 * It exists so the invariant checker stays an independent judge: it must not share a parser (or its
 * bugs) with src/engine/xml. It keeps elements and attributes only (text is not needed by any check),
 * resolves namespace prefixes, and throws on markup that is not well-formed enough to be trusted.
 */
export interface TreeAttribute {
    name: string;
    value: string;
    ns: string | undefined;
    local: string;
}
export interface TreeElement {
    name: string;
    local: string;
    ns: string | undefined;
    attrs: TreeAttribute[];
    children: TreeElement[];
    parent: TreeElement | undefined;
    /** Prefix -> namespace URI visible at this element (includes its own declarations). */
    scope: ReadonlyMap<string, string>;
}
export declare class XmlReadError extends Error {
}
export declare function decodeXmlBytes(bytes: Uint8Array): string;
/** Parses a document and returns its root element. Throws XmlReadError when malformed. */
export declare function readXmlTree(source: string): TreeElement;
export declare function walk(el: TreeElement): Generator<TreeElement>;
export declare function attr(el: TreeElement, name: string): string | undefined;
export declare function hasDoctype(source: string): boolean;
