#!/usr/bin/env node
// The package's bin. The CLI is TypeScript compiled to dist/: the packed package ships it
// built (`prepack`); in the repository `npm start` and `npm test` build it when stale, and
// no install script does (a package that runs one makes npm warn whoever installs it).
// This stub only loads it and says what to do when it is missing.
import('../dist/cli/main.js').then(
  // A crash is never exit 1 ("findings"): 2 says the run did not give a verdict.
  (m) => m.main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (err) => {
    console.error(`mrtr-inspector: internal error: ${err && err.stack ? err.stack : err}`);
    process.exitCode = 2;
  }),
  (err) => {
    if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist/cli/main.js')) {
      console.error('mrtr-inspector: the CLI is not built yet. Run `npm run build:cli` (or `npm start`, which builds what is stale) in the repository first.');
      process.exitCode = 2;
      return;
    }
    throw err;
  },
);
