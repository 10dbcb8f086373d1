#!/usr/bin/env node
const args = process.argv.slice(2);

if (args[0] === 'generate') {
  // `generate` loads the engine as one bundled module (made by `npm run build`): importing its ~70 modules
  // one by one took ~30 ms more of a ~400 ms run for 1000 slides (bench/README.md). The code is the same.
  const { runGenerate } = await import('../dist/cli/generate-command.bundle.js');
  process.exitCode = await runGenerate(args.slice(1));
} else {
  const { main } = await import('../dist/cli/main.js');
  process.exitCode = await main(args);
}
