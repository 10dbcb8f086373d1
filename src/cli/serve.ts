/**
 * `deckforge serve`: the HTTP API with an embedded job worker, on PORT (8080); `--no-worker` runs the API only
 * (its jobs are run by `deckforge worker` processes on the same stores). On an empty database the first start
 * creates an account and prints its credentials once, here (not in the log).
 */
import { createRuntime, isStoreNotReady } from '../composition/index.js';
import { createWebServer } from '../composition/create-web-server.js';
import { loadCommandConfig } from './command-config.js';
import type { CommandIo } from './command-io.js';
import { portProblem } from './port-probe.js';
import { shutDownWithin } from './shutdown.js';
import { untilStopped, type StopOptions } from './stop-signal.js';

const USAGE = `Usage: deckforge serve [--no-worker]

  --no-worker   answer the API only; queued jobs are run by \`deckforge worker\` processes on the same stores

Settings come from the environment: PORT, HOST, DECKFORGE_DATA_DIR, DECKFORGE_PLANS, DECKFORGE_ALLOW_PRIVATE_URLS,
…: docs/configuration.md lists every setting and its default (served at /docs/configuration).
`;

export async function runServe(args: string[], io: CommandIo, options: StopOptions = {}): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout(USAGE);
    return 0;
  }
  const unexpected = args.filter((arg) => arg !== '--no-worker');
  if (unexpected.length > 0) {
    io.stderr(`deckforge serve: unexpected arguments: ${unexpected.join(' ')}\n\n${USAGE}`);
    return 2;
  }
  const consumeJobs = !args.includes('--no-worker');
  const config = loadCommandConfig('serve', io);
  if (!config) return 2;
  const problem = await portProblem(config.host, config.port);
  if (problem) {
    io.stderr(`deckforge serve: ${problem}\n`);
    return 1;
  }
  let runtime;
  try {
    runtime = await createRuntime(config, { createFirstAccount: true, consumeJobs });
  } catch (error) {
    if (!isStoreNotReady(error)) throw error;
    io.stderr(`deckforge serve: ${error.message}\n`);
    return 1;
  }
  const first = runtime.firstAccount;
  if (first) {
    io.stdout(
      [
        'First start: an account was created. Its password and security key are shown only now: keep them.',
        `  e-mail:       ${first.email}`,
        `  password:     ${first.password}`,
        `  security key: ${first.key}`,
        `  plan:         ${first.plan}`,
        '',
      ].join('\n'),
    );
  }
  let server;
  try {
    server = await createWebServer(runtime.service, config);
    const url = await server.listen();
    const role = consumeJobs ? '' : ', API only: jobs run in `deckforge worker` processes';
    io.stdout(`Deckforge is listening on ${url} (data in ${config.dataDir}${role})\n`);
  } catch (error) {
    await runtime.close();
    io.stderr(`deckforge serve: cannot start the HTTP server: ${(error as Error).message}\n`);
    return 1;
  }
  await untilStopped(options);
  const running = server;
  await shutDownWithin(config.shutdownTimeoutMs, {
    async stop() {
      await running.close();
      await runtime.close();
    },
    async interrupt() {
      running.closeConnections();
      await runtime.interrupt();
    },
    onTimeout: () =>
      runtime.logger.warn(
        { timeoutMs: config.shutdownTimeoutMs },
        'shutdown timeout reached: running generations are stopped, running jobs run again at the next start',
      ),
  });
  return 0;
}
