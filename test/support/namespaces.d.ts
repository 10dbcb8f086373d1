/** Namespace URIs the checker matches on, transitional first, Strict (ISO 29500) second. */
export declare const NS: {
    readonly p: readonly ["http://schemas.openxmlformats.org/presentationml/2006/main", "http://purl.oclc.org/ooxml/presentationml/main"];
    readonly a: readonly ["http://schemas.openxmlformats.org/drawingml/2006/main", "http://purl.oclc.org/ooxml/drawingml/main"];
    readonly c: readonly ["http://schemas.openxmlformats.org/drawingml/2006/chart", "http://purl.oclc.org/ooxml/drawingml/chart"];
    readonly r: readonly ["http://schemas.openxmlformats.org/officeDocument/2006/relationships", "http://purl.oclc.org/ooxml/officeDocument/relationships"];
    readonly mc: readonly ["http://schemas.openxmlformats.org/markup-compatibility/2006"];
};
export type NsKey = keyof typeof NS;
export declare function inNs(ns: string | undefined, key: NsKey): boolean;
export declare function is(el: {
    ns: string | undefined;
    local: string;
}, key: NsKey, local: string): boolean;
