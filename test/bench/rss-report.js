// Preloaded into a benchmarked process (`node --import`): at exit, prints its peak resident
// memory and its CPU time (user + system, all threads) so the parent can compare processes
// side by side.
process.on('exit', () => {
  const u = process.resourceUsage();
  process.stderr.write(`\nBENCH_MAX_RSS_KB=${u.maxRSS}\nBENCH_CPU_US=${u.userCPUTime + u.systemCPUTime}\n`);
});
