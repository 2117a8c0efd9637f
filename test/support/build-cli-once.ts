// Vitest's global setup: builds the CLI (dist/) when stale, once, before any test file
// runs. Files that run the CLI used to each build it on their own; two files starting at
// once, with the sources newer than dist/, both ran tsc, and one's rewrite of dist/ under
// the other's running CLI let that CLI load a half-written module and exit with nothing
// on stdout. Each file's own `buildCliIfStale` now finds dist/ fresh and does nothing.
import { buildCliIfStale } from './cli-process.js';

export default function setup(): void {
  buildCliIfStale();
}
