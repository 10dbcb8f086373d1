export interface RawZipEntry {
    name: string;
    /** 0 = Stored, 8 = Deflate. */
    method: 0 | 8;
    /** The bytes as they appear in the archive (already deflated for method 8). */
    data: Uint8Array;
    crc: number;
    uncompressedSize: number;
}
export declare function storedEntry(name: string, data: Uint8Array): RawZipEntry;
export declare function writeZip(entries: readonly RawZipEntry[]): Uint8Array;
