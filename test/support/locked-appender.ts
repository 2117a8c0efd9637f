// A second process appending records to a capture file as `wrap` does when the relay does
// not answer: wrap's own RecordSink in file mode, flushed every `batch` records, so each
// batch is one append. Exits 0 when every record is written.
import { RecordSink } from '../../cli/wrap/record-sink.js';
import type { ExchangeRecord } from '../../worker/protocol.js';

const [path, countText, batchText] = process.argv.slice(2);
const count = Number(countText);
const batch = Number(batchText);
const problems: string[] = [];
const sink = new RecordSink({ file: path, warn: (m) => problems.push(m) });

for (let i = 0; i < count; i++) {
  const record: ExchangeRecord = {
    v: 1, id: `wrap-${i}`, seq: i, source: 'relay', startedAt: 1_000 + i, state: 'complete', endedAt: 1_500 + i,
    request: { method: 'POST', url: 'stdio://x', headers: [], body: `{"n":${i}}` },
    response: { status: 200, headers: [], receivedAt: 2_000 + i, events: [] },
  };
  sink.put(record);
  if ((i + 1) % batch === 0) await sink.flush();
}
await sink.flush();
if (problems.length > 0 || sink.counts.written !== count) {
  process.stderr.write(`appender: wrote ${sink.counts.written} of ${count}; ${problems.join('; ')}\n`);
  process.exit(1);
}
