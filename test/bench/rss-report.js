// Preloaded into a benchmarked process (`node --import`): at exit, prints its peak resident
// memory so the parent can compare processes side by side.
process.on('exit', () => {
  process.stderr.write(`\nBENCH_MAX_RSS_KB=${process.resourceUsage().maxRSS}\n`);
});
