/**
 * Builds the console's browser code (src/console/browser) into dist/console/assets: one script and one style sheet,
 * bundled and minified by esbuild, named by a hash of their content so the server can let browsers keep them for a
 * year. Each file also gets a gzip and a brotli twin (compressed once here, not on every request), and
 * dist/console/manifest.json names the files the HTML shell links to. Run by `npm run build`.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, 'dist', 'console');
const ASSETS = join(OUT, 'assets');

export interface ConsoleManifest {
  script: string;
  style: string;
}

async function buildConsole(): Promise<void> {
  rmSync(ASSETS, { recursive: true, force: true });
  mkdirSync(ASSETS, { recursive: true });
  const result = await build({
    entryPoints: [join(ROOT, 'src', 'console', 'browser', 'main.ts')],
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['chrome110', 'firefox110', 'safari16'],
    outdir: ASSETS,
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    tsconfig: join(ROOT, 'src', 'console', 'browser', 'tsconfig.json'),
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((path) => basename(path));
  const script = outputs.find((name) => name.endsWith('.js'));
  const style = outputs.find((name) => name.endsWith('.css'));
  if (!script || !style)
    throw new Error(`the console build made ${outputs.join(', ')}: a script and a style expected`);
  let raw = 0;
  let brotli = 0;
  for (const name of outputs) {
    const bytes = readFileSync(join(ASSETS, name));
    const br = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
    writeFileSync(join(ASSETS, `${name}.gz`), gzipSync(bytes, { level: 9 }));
    writeFileSync(join(ASSETS, `${name}.br`), br);
    raw += statSync(join(ASSETS, name)).size;
    brotli += br.length;
  }
  const manifest: ConsoleManifest = { script, style };
  writeFileSync(join(OUT, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  if (process.argv.includes('--report'))
    console.log(`console assets: ${raw} bytes, ${brotli} bytes with brotli (${outputs.join(', ')})`);
}

await buildConsole();
