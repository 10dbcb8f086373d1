/**
 * `npm run build` used to compile src/**\/*.test.ts and, through their imports, emit .js copies of test/support
 * modules next to their sources; vitest then resolves `./x.js` imports to those stale copies and tests run old
 * code. The support modules that tests load first call this, so that such a copy fails loudly instead of
 * passing silently.
 */
export function assertRunningFromSource(moduleUrl: string): void {
  if (moduleUrl.endsWith('.js')) {
    throw new Error(
      `${moduleUrl} is a compiled copy of a test/support .ts file, shadowing its source: delete the ` +
        '.js files under test/support (a build emitted them; scripts/compile-server.ts compiles src/ only).',
    );
  }
}
