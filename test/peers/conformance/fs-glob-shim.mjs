// node:fs as it is, plus `globSync` where Node lacks it. The suite uses globSync only in
// its tier-check command (never in a scenario run), so the stand-in throws rather than
// pretending to match: a run that needs it says so.
import fs from 'node:fs';

export * from 'node:fs';
export default fs;

export const globSync = fs.globSync ?? ((pattern) => {
  throw new Error(`fs.globSync(${JSON.stringify(pattern)}) is not available on Node ${process.versions.node}; the conformance shim does not implement it`);
});
