// Public API of copy-as: an exchange's request as a cURL command or a fetch() call.
export { toCurl, toFetch, headersToCopy, type CopyAsOptions } from './copy-as.js';
export { shellQuote, shellWord, printfCommand } from './shell-quote.js';
