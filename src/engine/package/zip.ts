/** The package layer's ZIP container: read lazily, write deterministically, copy unchanged entries raw. */
export { readZip, ZipArchive, ENCRYPTED_MESSAGE } from './zip-reader.js';
export type { ZipEntry } from './zip-reader.js';
export { writeZip, DEFAULT_DEFLATE_LEVEL } from './zip-writer.js';
export type { ZipOutputEntry, ZipWriteOptions } from './zip-writer.js';
