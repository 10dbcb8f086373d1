/**
 * A sheet name as a formula prefix: quoted unless Excel writes it bare (letters, digits, `_`, `.`;
 * docs/powerpoint-rules.md "Chart XML order and series data").
 */
export function sheetPrefix(name: string): string {
  const bare = /^[\p{L}_][\p{L}\p{N}_.]*$/u.test(name) && !/^([A-Za-z]{1,3}\d+|[Rr]\d*[Cc]\d*)$/.test(name);
  return bare ? name : `'${name.replace(/'/g, "''")}'`;
}
