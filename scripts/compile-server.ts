/**
 * Compiles src/ (tests and the console's browser code aside) into dist/, one JavaScript file and source map per
 * TypeScript file, with esbuild: a transpile, no type check. `npm run typecheck` (part of `npm test`) is what checks
 * the types; the build only has to make what runs, and vitest runs the same sources through esbuild already. tsc
 * took about 14 s of a 20 s build on 2 cores for output nobody reads (declarations of the server's modules; the
 * client package's own build keeps its declarations), esbuild about one second. Run by `npm run build`.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = join(ROOT, 'src');
const OUT = join(ROOT, 'dist');
/** Bundled on their own (scripts/build-console.ts), for browsers. */
const BROWSER = join(SRC, 'console', 'browser');

function serverSources(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (path !== BROWSER) serverSources(path, out);
    } else if (
      entry.name.endsWith('.ts') &&
      !entry.name.endsWith('.test.ts') &&
      !entry.name.endsWith('.d.ts')
    ) {
      out.push(path);
    }
  }
  return out;
}

/** Transpiles every server source into dist/ (the same layout as src/); returns how many files it wrote. */
export async function compileServer(): Promise<number> {
  const sources = serverSources(SRC);
  await build({
    entryPoints: sources,
    outdir: OUT,
    outbase: SRC,
    platform: 'node',
    format: 'esm',
    // tsconfig.json's target: class fields, `using` and the rest stay as Node runs them.
    target: 'es2022',
    sourcemap: true,
    tsconfig: join(ROOT, 'tsconfig.json'),
    logLevel: 'warning',
  });
  return sources.length;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await compileServer();
