/**
 * The environment of a process that keeps the real time when the tests run on a moved clock (`faketime`, as CI
 * runs `npm test`: docs/development.md, "CI"): ours without libfaketime in LD_PRELOAD and without its FAKETIME*
 * settings. For a TLS client that checks certificates (npm against its registry: a certificate is not valid in
 * years to come), for redis-server (which deadlocks under libfaketime: redis-server.ts), and for a suite that moves
 * its own server's clock away from the real one (the Python client's). On the real clock it changes nothing.
 * (No vitest import here: vitest's globalSetup uses it too, through redis-server.ts.)
 */
export function realClockEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const kept = Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('FAKETIME')));
  const preload = (env.LD_PRELOAD ?? '')
    .split(/[:\s]+/)
    .filter((lib) => lib !== '' && !lib.includes('libfaketime'));
  if (preload.length > 0) kept.LD_PRELOAD = preload.join(':');
  else delete kept.LD_PRELOAD;
  return kept;
}
