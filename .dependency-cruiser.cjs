/** Dependency rules from DESIGN.md: arrows point inward, no cycles, the engine stands alone. */
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
        'Image libraries (native, asynchronous) are used by src/image-preparation only: the engine stays pure, and the worker and CLI call the preparation step.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/image-preparation/', '\\.test\\.ts$'] },
      to: { path: 'node_modules/(sharp|bmp-ts)/' },
    },
    {
      name: 'client-stands-alone',
      comment:
        'src/client is what `deckforge/client` ships, for browsers too: it imports nothing but itself (the platform gives fetch).',
      severity: 'error',
      from: { path: '^src/client/' },
      to: { pathNot: '^src/client/' },
    },
    {
      name: 'http-is-not-imported-by-inner-layers',
      severity: 'error',
      from: { path: '^src/(engine|service|adapters)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/http/' },
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
