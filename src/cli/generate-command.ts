/**
 * `deckforge generate FILE... PAYLOAD.json [-o OUT]`: the offline twin of POST /v1.0/generator/create.
 * The files play the part of the uploaded `files` (the payload names them by base name), so the CLI and the
 * service run the same engine call.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { generate } from '../engine/index.js';
import { processIo, reportUserError, type CommandIo } from './command-io.js';

const HELP = `Usage: deckforge generate FILE... PAYLOAD.json [-o OUT.pptx]

  FILE          the template (.pptx/.potx) and any image files; the payload refers to them by base name
  PAYLOAD.json  the jsonData document ('-' reads it from standard input)
  -o, --output  where to write the deck (default: the payload's resultFileName, else the template's name)
  -q, --quiet   do not print warnings
`;

export async function runGenerate(args: string[], io: CommandIo = processIo): Promise<number> {
  const files: string[] = [];
  let payloadPath: string | null = null;
  let output: string | null = null;
  let quiet = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '-h' || arg === '--help') {
      io.stdout(HELP);
      return 0;
    } else if (arg === '-o' || arg === '--output') output = args[++i] ?? null;
    else if (arg === '-q' || arg === '--quiet') quiet = true;
    else if (arg === '-' || arg.toLowerCase().endsWith('.json')) payloadPath = arg;
    else files.push(arg);
  }
  if (!payloadPath || files.length === 0 || (args.includes('-o') && !output)) {
    io.stderr(HELP);
    return 2;
  }
  try {
    const fileMap = new Map<string, Uint8Array>();
    for (const file of files) fileMap.set(basename(file), readFileSync(file));
    const text = readFileSync(payloadPath === '-' ? 0 : payloadPath, 'utf8');
    let payload: unknown;
    try {
      payload = JSON.parse(text);
    } catch (error) {
      io.stderr(`error: ${payloadPath} is not valid JSON: ${(error as Error).message}\n`);
      return 1;
    }
    const result = generate({ payload, files: fileMap });
    const target = resolve(output ?? result.fileName);
    writeFileSync(target, result.bytes);
    if (!quiet)
      for (const warning of result.warnings) io.stderr(`warning: ${warning.path}: ${warning.message}\n`);
    io.stdout(
      `wrote ${target} (${result.slideCount} ${result.slideCount === 1 ? 'slide' : 'slides'}, ${result.bytes.length} bytes)\n`,
    );
    return 0;
  } catch (error) {
    return reportUserError(error, io);
  }
}
