// Ad-hoc measurement of a big relay backlog drain (issue 13): peak RSS and the largest batch.
// Usage: npx tsx test/bench/relay-backlog-drain.ts <checkout root> gen; then without gen.
const root = process.argv[2]!;
const { CaptureFile } = await import(root + '/server/relay/capture-file.ts');
const { Backlog } = await import(root + '/server/relay/backlog.ts');
const { mkdtempSync, writeFileSync, appendFileSync, statSync, rmSync } = await import('node:fs');
const { join } = await import('node:path');
const dir = '/tmp/i13-drain-file';
const path = join(dir, 'c.jsonl');
if (process.argv[3] === 'gen') {
rmSync(dir, { recursive: true, force: true }); (await import('node:fs')).mkdirSync(dir, { mode: 0o700 });
const pad = 'x'.repeat(100_000);
const lines = [JSON.stringify({ kind: 'mrtr-inspector-capture', version: 1, createdAt: new Date().toISOString() })];
writeFileSync(path, lines[0] + '\n');
for (let i = 0; i < 1500; i++) appendFileSync(path, '\n' + JSON.stringify({ v: 1, id: 'ex-' + i, seq: i, source: 'relay', startedAt: i, state: 'complete', request: { method: 'POST', url: 'http://t', headers: [], body: pad } }));
lines.length = 0;
process.exit(0);
}
const size = statSync(path).size;

const base = process.memoryUsage().rss;
let peak = base;
const t = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 5);
const backlog = new Backlog(new CaptureFile(path, () => undefined));
let drains = 0, handed = 0, maxContent = 0;
for (;;) {
  const { drain, content, more } = await backlog.handOut();
  drains++; maxContent = Math.max(maxContent, content.length);
  const ids = content.split('\n').filter((l: string) => l.startsWith('{"v"')).map((l: string) => JSON.parse(l).id);
  handed += ids.length;
  await backlog.ack({ drain, ids });
  peak = Math.max(peak, process.memoryUsage().rss);
  if (!more) break;
}
clearInterval(t); peak = Math.max(peak, process.resourceUsage().maxRSS * 1024); maxContent = maxContent;
console.log(`file ${(size / 2 ** 20).toFixed(0)} MiB: ${drains} drains, ${handed} records, largest batch ${(maxContent / 2 ** 20).toFixed(1)} MiB, peak rss above start (kernel maxRSS) ${((peak - base) / 2 ** 20).toFixed(0)} MiB`);
rmSync(dir, { recursive: true });
export {};
