// Module hooks for running @modelcontextprotocol/conformance on Node 20: its bundle imports
// `globSync` from "fs", which Node 20 lacks (it came in Node 22), and fails to link. Only
// imports made from inside the conformance package are pointed at fs-glob-shim.mjs.
const shim = new URL('./fs-glob-shim.mjs', import.meta.url).href;

export async function resolve(specifier, context, next) {
  if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL?.includes('/@modelcontextprotocol/conformance/')) {
    return { url: shim, shortCircuit: true };
  }
  return next(specifier, context);
}
