/**
 * `npm test`: the type check and the lint (with the dependency rules) run beside vitest rather than before it,
 * since vitest leaves most of a core idle while it waits on LibreOffice, databases and sockets. Their output is
 * printed after vitest's; all three must pass. Arguments go to vitest (`npm test -- test/engine`).
 */
import { spawn } from 'node:child_process';

function run(command: string, args: string[], quiet: boolean): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

const checks = [
  { name: 'npm run typecheck', run: run('npm', ['run', '--silent', 'typecheck'], true) },
  { name: 'npm run lint', run: run('npm', ['run', '--silent', 'lint'], true) },
];
const vitest = await run('npx', ['vitest', 'run', ...process.argv.slice(2)], false);
let failed = vitest.code !== 0 ? ['vitest'] : [];
for (const check of checks) {
  const { code, output } = await check.run;
  process.stdout.write(`\n--- ${check.name}: ${code === 0 ? 'passed' : `failed (exit ${code})`}\n${output}`);
  if (code !== 0) failed = [...failed, check.name];
}
if (failed.length > 0) process.stdout.write(`\nnpm test failed: ${failed.join(', ')}\n`);
process.exitCode = failed.length > 0 ? 1 : 0;
