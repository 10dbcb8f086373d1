/** A one-slide deck that passes the invariants and the validator (python-pptx test file, MIT). */
export declare const HOSTILE_BASE = "python-pptx/shp-freeform.pptx";
export interface ZipBombOptions {
    /** Inflated size of the bomb entry; default 2 GiB (still below the 4 GiB ZIP64 threshold). */
    inflatedBytes?: number;
    /** Which entry of the deck is the bomb; default the one slide, which the engine must read. */
    entry?: string;
}
/**
 * A valid-looking .pptx (content types, relationships, all parts present) whose `entry` inflates to
 * `inflatedBytes` zeros; the archive itself is about 2 MiB for 2 GiB. Headers tell the truth, so a
 * reader that trusts declared sizes is caught as surely as one that inflates blindly.
 */
export declare function zipBomb(options?: ZipBombOptions): Uint8Array;
/**
 * The same bomb but the headers lie: they declare `declaredBytes` (small) while the data inflates to
 * `inflatedBytes`. Catches readers that size buffers from the header and then overrun or trust them.
 */
export declare function lyingSizeZipBomb(inflatedBytes?: number, declaredBytes?: number): Uint8Array;
/** The base deck plus `count` extra (empty, stored) entries; more than 65 535 uses ZIP64 records. */
export declare function manyEntriesZip(count?: number): Uint8Array;
/** The base deck whose slide declares a DTD with nested entities ("billion laughs", 10^9 'lol's). */
export declare function billionLaughsPptx(): Uint8Array;
/** A well-formed OPC package that is a Word document, not a presentation. */
export declare function docxPackage(): Uint8Array;
/** A ZIP with no package structure at all. */
export declare function plainZip(): Uint8Array;
/** Bytes that are not a ZIP (a PNG signature and some text). */
export declare function nonZipFile(): Uint8Array;
/** A real deck cut short: the central directory and part of the data are gone. */
export declare function truncatedZip(keepFraction?: number): Uint8Array;
