/** Dependency rules from DESIGN.md: arrows point inward, no cycles, the engine stands alone. */
module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'engine-stands-alone',
      comment: 'engine/ is pure: it imports nothing outside itself but its zip-free node built-ins.',
      severity: 'error',
      from: { path: '^src/engine/' },
      to: { pathNot: ['^src/engine/', '^node:zlib$', '^zlib$', '^node:crypto$', '^crypto$', 'node_modules/zod'] },
    },
    {
      name: 'service-knows-no-transport-or-storage',
      severity: 'error',
      from: { path: '^src/service/' },
      to: { path: ['^src/(http|cli|adapters)/', 'node_modules/(fastify|better-sqlite3|pg|bullmq|ioredis|@aws-sdk)'] },
    },
    {
      name: 'adapters-implement-ports-only',
      severity: 'error',
      from: { path: '^src/adapters/' },
      to: { path: '^src/(http|cli)/' },
    },
    {
      name: 'http-is-not-imported-by-inner-layers',
      severity: 'error',
      from: { path: '^src/(engine|service|adapters)/' },
      to: { path: '^src/http/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
