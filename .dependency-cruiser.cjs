/**
 * Dependency rules from DESIGN.md: arrows point inward and never back up, no cycles (in the whole of src/, the
 * engine's folders included), the engine stands alone.
 */
module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'engine-stands-alone',
      comment:
        'engine/ is pure: it imports nothing outside itself but zlib and crypto (tests may import test support).',
      severity: 'error',
      from: { path: '^src/engine/', pathNot: '\\.test\\.ts$' },
      to: {
        pathNot: ['^src/engine/', '^node:zlib$', '^zlib$', '^node:crypto$', '^crypto$', 'node_modules/zod'],
      },
    },
    {
      name: 'service-knows-no-transport-or-storage',
      severity: 'error',
      from: { path: '^src/service/', pathNot: '\\.test\\.ts$' },
      to: {
        path: [
          '^src/(http|cli|adapters)/',
          'node_modules/(fastify|better-sqlite3|pg|bullmq|ioredis|@aws-sdk)',
        ],
      },
    },
    {
      name: 'adapters-implement-ports-only',
      severity: 'error',
      from: { path: '^src/adapters/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/(http|cli)/' },
    },
    {
      name: 'engine-only-through-its-door',
      comment:
        "Outside the engine, only src/engine/index.ts is imported (DESIGN.md: generate.ts and inspect.ts are the doors), and errors.ts, the error type alone, by threads that only host generation threads and must not load the engine (the CLI's main thread).",
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/engine/', '\\.test\\.ts$'] },
      to: {
        path: '^src/engine/',
        pathNot: [
          '^src/engine/index\\.ts$',
          '^src/engine/errors\\.ts$',
          // The console's playground finds a JSON syntax error in the browser with the engine's own finder,
          // which stands alone (errors.ts aside), without loading the engine into the page.
          '^src/engine/payload/json-syntax\\.ts$',
        ],
      },
    },
    {
      name: 'image-decoding-in-one-place',
      comment:
        'Image libraries (native, asynchronous) are used by src/image-preparation only: the engine stays pure, and the generation threads and the CLI call the preparation step.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/image-preparation/', '\\.test\\.ts$'] },
      to: { path: 'node_modules/(sharp|bmp-ts)/' },
    },
    {
      name: 'client-stands-alone',
      comment:
        'packages/client is the deckforge-client package (and `deckforge/client`), for browsers too: it imports nothing but itself (the platform gives fetch).',
      severity: 'error',
      from: { path: '^packages/client/src/' },
      to: { pathNot: '^packages/client/src/' },
    },
    {
      name: 'http-is-not-imported-by-inner-layers',
      severity: 'error',
      from: { path: '^src/(engine|service|adapters)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/http/' },
    },
    // No arrow runs back up. From the top: cli; composition (wires adapters into the service, the console into
    // the HTTP server); console; http, adapters, the generation pool, the renderer; service; engine and config.
    {
      name: 'nothing-imports-the-cli',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/cli/', '\\.test\\.ts$'] },
      to: { path: '^src/cli/' },
    },
    {
      name: 'only-the-cli-imports-composition',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/(cli|composition)/', '\\.test\\.ts$'] },
      to: { path: '^src/composition/' },
    },
    {
      name: 'http-does-not-know-the-console',
      comment: 'The console is mounted on the HTTP server from composition/create-web-server.ts.',
      severity: 'error',
      from: { path: '^src/(http|service|adapters|engine|config)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/console/' },
    },
    {
      name: 'config-stands-below-everything',
      severity: 'error',
      from: { path: '^src/config/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/', pathNot: '^src/config/' },
    },
    {
      name: 'service-rooms-in-order',
      comment:
        'Inside src/service, from the top: the facade and the sweeper at its root; accounts/; jobs/; generation/; templates/; usage/; ports/ and the shared types at its root.',
      severity: 'error',
      from: { path: '^src/service/(usage|templates|generation|jobs|ports)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/service/(accounts/|create-|retention-sweeper)' },
    },
    {
      name: 'jobs-generation-usage-point-down',
      severity: 'error',
      from: { path: '^src/service/(usage|templates|generation|ports)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/service/jobs/' },
    },
    {
      name: 'generation-stands-over-templates-and-usage',
      comment:
        'A generation reads stored templates and charges the allowance; stored templates know nothing of generating.',
      severity: 'error',
      from: { path: '^src/service/(templates|usage|ports)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/service/generation/' },
    },
    {
      name: 'usage-stands-below-templates',
      severity: 'error',
      from: { path: '^src/service/(usage|ports)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/service/templates/' },
    },
    {
      name: 'ports-stand-alone',
      comment: 'A port is our own vocabulary: it imports other ports and the engine types, never a use case.',
      severity: 'error',
      from: { path: '^src/service/ports/' },
      to: { path: '^src/service/', pathNot: '^src/service/ports/' },
    },
    {
      name: 'routes-do-not-import-routes',
      comment: 'What two routes share lives in a named module of http/ (route-context.ts, link-base.ts, …).',
      severity: 'error',
      from: { path: '^src/http/routes/' },
      to: { path: '^src/http/routes/' },
    },
    {
      name: 'http-reaches-the-service-through-its-facade',
      comment:
        'DeckforgeService, what a transport reads a request with (request-reading.ts) and the error types; never a room of the service.',
      severity: 'error',
      from: { path: '^src/http/', pathNot: '\\.test\\.ts$' },
      to: {
        path: '^src/service/',
        pathNot: '^src/service/(deckforge-service|request-reading|errors)\\.ts$',
      },
    },
    {
      name: 'console-server-reaches-the-service-through-its-use-cases',
      comment:
        'The facade (DeckforgeService, ConsoleService) and its error types; never a use case module or a port.',
      severity: 'error',
      from: { path: '^src/console/server/' },
      to: {
        path: '^src/service/',
        pathNot: '^src/service/(deckforge-service|console-service|errors)\\.ts$',
      },
    },
    {
      name: 'browser-bundle-imports-no-server-code',
      comment:
        "src/console/browser runs in the browser (its own tsconfig, DOM globals): it imports only itself, and the engine's JSON syntax finder, which is pure and stands alone, so the playground names the same line and column as the server.",
      severity: 'error',
      from: { path: '^src/console/browser/' },
      to: { pathNot: ['^src/console/browser/', '^src/engine/payload/json-syntax\\.ts$'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
