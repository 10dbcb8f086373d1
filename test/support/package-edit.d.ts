export type PackageFiles = Record<string, Uint8Array>;
/** Unzips, lets `edit` change the entry map in place (add, delete, replace), zips again. */
export declare function editPackage(bytes: Uint8Array, edit: (files: PackageFiles) => void): Uint8Array;
/** Rewrites one part's text. Throws when the part is missing or the edit changed nothing. */
export declare function editPart(bytes: Uint8Array, item: string, edit: (xml: string) => string): Uint8Array;
/** The text of one entry, for assertions. */
export declare function readEntryText(bytes: Uint8Array, item: string): string;
