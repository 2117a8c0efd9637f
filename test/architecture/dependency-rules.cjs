// The direction of imports between hosts, checked by dependency-cruiser in `npm run
// typecheck`. Hosts: worker/ (the analysis core, runs in a web worker and in Node), web/
// (the page; web/sw/ is the service worker), server/ and cli/ (Node). Type-only imports
// are cruised too (tsPreCompilationDeps), so they count in cycles and are told apart from
// imports that run.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles anywhere: move what both sides share into a module of its own.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'page-imports-worker-types-only',
      severity: 'error',
      comment:
        'The page reaches the analysis worker through one wrap() and `import type` only (its entry is started with ' +
        'new Worker(new URL(...)), which is not an import). The exceptions are modules the page runs itself: the ' +
        'storage module it shares with both workers, the Console transport (sends go out through the page\'s fetch ' +
        'so the service worker taps them), and pure constants and checks (protocol version, _meta keys, the task ' +
        'key-test labels, the open-URL check, the Console send guard the page prompts from).',
      from: { path: '^web/', pathNot: '^web/sw/' },
      to: {
        path: '^worker/',
        dependencyTypesNot: ['type-only'],
        pathNot: [
          '^worker/storage/',
          '^worker/console/transport\\.ts$',
          '^worker/protocol\\.ts$',
          '^worker/decode/meta\\.ts$',
          '^worker/console/task-key-tests\\.ts$',
          '^worker/console/open-url\\.ts$',
          '^worker/console/send-guard\\.ts$',
        ],
      },
    },
    {
      name: 'worker-no-node-builtins',
      severity: 'error',
      comment: 'worker/ runs unchanged in a web worker and in Node: no Node builtins (node:*).',
      from: { path: '^worker/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'worker-not-web-or-server',
      severity: 'error',
      comment: 'worker/ is the core: it imports neither the page (web/) nor the Node server (server/).',
      from: { path: '^worker/' },
      to: { path: '^(web|server)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsPreCompilationDeps: true,
  },
};
