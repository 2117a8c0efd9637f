// Damaged capture files through the whole core: importCapture, then analyze. A damaged file
// is refused with what and where unless the user agrees to a partial import, which then
// says what it skipped; what is imported must analyse to plain, cloneable data.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { importCapture } from '../../../worker/capture/index.js';
import type { ImportOutcome } from '../../../worker/capture/index.js';
import { analyzeUsable, goodHar, goodJsonl } from './hostile.js';

type Ok = Extract<ImportOutcome, { ok: true }>;
type Refused = Extract<ImportOutcome, { ok: false }>;

function refused(out: ImportOutcome): Refused {
  if (out.ok) throw new Error(`expected a refusal, got ${out.exchanges.length} exchanges`);
  return out;
}
function imported(out: ImportOutcome): Ok {
  if (!out.ok) throw new Error(`expected an import, got: ${out.error.message}`);
  return out;
}

/** The good capture as a browser would write it: no `_mrtr` extension, HAR fields only. */
function browserHar(): { log: { entries: Record<string, any>[] } } {
  const har = JSON.parse(goodHar());
  for (const e of har.log.entries) delete e._mrtr;
  return har;
}

describe('truncated captures', () => {
  it('refuses a HAR cut off inside an entry, naming the entry and line, and imports the complete entries only with allowPartial', async () => {
    const text = goodHar();
    const cut = text.slice(0, text.lastIndexOf('"startedDateTime"') + 30);
    const no = refused(importCapture(cut));
    expect(no.error.where).toBe('log.entries[2]');
    expect(no.error.message).toMatch(/^1 of 3 entries could not be read; the first: log\.entries\[2\]: the file is cut off .*line \d+, column \d+.*The other 2 can be imported without it\./);
    const yes = imported(importCapture(cut, { allowPartial: true }));
    expect(yes.exchanges.map((r) => r.seq)).toEqual([0, 1]);
    expect(yes.skipped).toEqual([expect.objectContaining({ index: 2, where: 'log.entries[2]', message: expect.stringMatching(/cut off/) })]);
    const a = await analyzeUsable(yes.exchanges);
    expect(a.conversations.map((c) => c.exchanges)).toEqual([[0, 1]]);
  });

  it('refuses a HAR cut off between entries, and salvages every entry before the cut with allowPartial', () => {
    const text = JSON.stringify(JSON.parse(goodHar()));
    const cut = text.slice(0, text.indexOf(',{"startedDateTime"', text.indexOf('"entries"') + 40) + 1);
    expect(refused(importCapture(cut)).error.where).toMatch(/^log\.entries\[1\]/);
    const yes = imported(importCapture(cut, { allowPartial: true }));
    expect(yes.exchanges).toHaveLength(1);
    expect(yes.skipped.map((s) => s.where)).toEqual(['log.entries[1]']);
  });

  it('refuses a HAR cut off before its first entry with line and column and nothing to salvage', () => {
    const text = goodHar();
    const cut = text.slice(0, text.indexOf('"entries"') + 5);
    for (const opts of [{}, { allowPartial: true }]) {
      const no = refused(importCapture(cut, opts));
      expect(no.error.where).toMatch(/^line \d+, column \d+$/);
      expect(no.error.message).toMatch(/not valid JSON.*cut-off/);
    }
  });

  it('refuses a JSONL capture cut mid-line, naming the line, and imports the whole lines only with allowPartial', async () => {
    const text = goodJsonl();
    const cut = text.slice(0, text.length - 40);
    const no = refused(importCapture(cut));
    expect(no.format).toBe('jsonl');
    expect(no.error.where).toBe('line 4');
    expect(no.error.message).toMatch(/^1 of 3 lines could not be read; the first: line 4: the last line is cut off or not valid JSON/);
    const yes = imported(importCapture(cut, { allowPartial: true }));
    expect(yes.exchanges.map((r) => r.id)).toEqual(['b-0', 'b-1']);
    expect(yes.skipped).toEqual([expect.objectContaining({ index: 3, where: 'line 4' })]);
    await analyzeUsable(yes.exchanges);
  });

  it('refuses a JSONL capture with a damaged line in the middle, and keeps the lines around it with allowPartial', () => {
    const lines = goodJsonl().split('\n');
    lines[2] = lines[2].slice(0, 50);
    const text = lines.join('\n');
    expect(refused(importCapture(text)).error.where).toBe('line 3');
    const yes = imported(importCapture(text, { allowPartial: true }));
    expect(yes.exchanges.map((r) => [r.seq, r.id])).toEqual([[0, 'b-0'], [1, 'b-2']]);
    expect(yes.skipped.map((s) => s.where)).toEqual(['line 3']);
  });
});

// Each mutation breaks one field of entry 1 of an otherwise good browser HAR.
const HAR_TYPE_DAMAGE: [string, (e: Record<string, any>) => void, string][] = [
  ['headers as a string', (e) => { e.request.headers = 'content-type: application/json'; }, 'log.entries[1].request.headers'],
  ['a header as a string', (e) => { e.request.headers[0] = 'accept: */*'; }, 'log.entries[1].request.headers[0]'],
  ['a header name as a number', (e) => { e.response.headers[0].name = 7; }, 'log.entries[1].response.headers[0].name'],
  ['response headers as an object', (e) => { e.response.headers = { 'content-type': 'application/json' }; }, 'log.entries[1].response.headers'],
  ['status as a string', (e) => { e.response.status = '200'; }, 'log.entries[1].response.status'],
  ['status as null', (e) => { e.response.status = null; }, 'log.entries[1].response.status'],
  ['response body as a number', (e) => { e.response.content.text = 42; }, 'log.entries[1].response.content.text'],
  ['request body as a number', (e) => { e.request.postData.text = 42; }, 'log.entries[1].request.postData.text'],
  ['postData as a string', (e) => { e.request.postData = '{"jsonrpc":"2.0"}'; }, 'log.entries[1].request.postData'],
  ['content as a list', (e) => { e.response.content = []; }, 'log.entries[1].response.content'],
  ['response as a string', (e) => { e.response = 'OK'; }, 'log.entries[1].response'],
  ['request as a list', (e) => { e.request = []; }, 'log.entries[1].request'],
  ['url as a number', (e) => { e.request.url = 8080; }, 'log.entries[1].request.url'],
  ['method as null', (e) => { e.request.method = null; }, 'log.entries[1].request.method'],
  ['startedDateTime as a number', (e) => { e.startedDateTime = 1785576601000; }, 'log.entries[1].startedDateTime'],
];

describe('wrong types everywhere', () => {
  it.each(HAR_TYPE_DAMAGE)('refuses a HAR entry with %s, naming the field, and imports the others with allowPartial', async (_name, damage, where) => {
    const har = browserHar();
    damage(har.log.entries[1]);
    const text = JSON.stringify(har);
    const no = refused(importCapture(text));
    expect(no.error.where).toBe(where);
    expect(no.error.message).toContain(where);
    const yes = imported(importCapture(text, { allowPartial: true }));
    expect(yes.exchanges.map((r) => r.seq)).toEqual([0, 2]);
    expect(yes.skipped).toEqual([expect.objectContaining({ index: 1, where })]);
    await analyzeUsable(yes.exchanges);
  });

  it.each([
    ['entries as an object', '{"log":{"entries":{"0":{}}}}'],
    ['entries as a string', '{"log":{"entries":"none"}}'],
    ['log as a list', '{"log":[]}'],
    ['log as null', '{"log":null}'],
  ])('refuses a HAR with %s even with allowPartial, pointing at log.entries', (_name, text) => {
    for (const opts of [{}, { allowPartial: true }]) {
      const no = refused(importCapture(text, opts));
      expect(no.error.where).toBe('log.entries');
      expect(no.error.message).toMatch(/log\.entries is missing or not a list/);
    }
  });

  it('refuses an entry that is not an object, a number or null in the entries list', () => {
    const har = browserHar();
    (har.log.entries as unknown[]).splice(1, 0, 7, null, 'entry');
    const no = refused(importCapture(JSON.stringify(har)));
    expect(no.skipped.map((s) => s.where)).toEqual(['log.entries[1]', 'log.entries[2]', 'log.entries[3]']);
    expect(imported(importCapture(JSON.stringify(har), { allowPartial: true })).exchanges.map((r) => r.seq)).toEqual([0, 4, 5]);
  });

  it.each([
    ['headers as a string', (r: Record<string, any>) => { r.request.headers = 'x'; }, 'line 3: request.headers'],
    ['status as a string', (r: Record<string, any>) => { r.response.status = '200'; }, 'line 3: response.status'],
    ['body as a number', (r: Record<string, any>) => { r.request.body = 42; }, 'line 3: request.body'],
    ['events as a string', (r: Record<string, any>) => { r.response.events = 'data: x'; }, 'line 3: response.events'],
    ['startedAt as a string', (r: Record<string, any>) => { r.startedAt = 'now'; }, 'line 3: startedAt'],
    ['the record as a list', (r: Record<string, any>) => [r], 'line 3'],
  ])('refuses a JSONL record with %s, naming line and field', (_name, damage, where) => {
    const lines = goodJsonl().split('\n');
    const rec = JSON.parse(lines[2]);
    lines[2] = JSON.stringify((damage as (r: Record<string, any>) => unknown)(rec) ?? rec);
    const no = refused(importCapture(lines.join('\n')));
    expect(no.error.where).toBe(where);
    expect(imported(importCapture(lines.join('\n'), { allowPartial: true })).exchanges).toHaveLength(2);
  });

  it('never throws and always yields analysable records when any field of a HAR entry takes any JSON value (property)', async () => {
    const base = browserHar();
    const paths: string[][] = [];
    const walk = (v: unknown, path: string[]) => {
      paths.push(path);
      if (typeof v === 'object' && v !== null && path.length < 6) for (const k of Object.keys(v)) walk((v as Record<string, unknown>)[k], [...path, k]);
    };
    base.log.entries.forEach((e, i) => walk(e, [String(i)]));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom(...paths), fc.jsonValue({ maxDepth: 3 })), { minLength: 1, maxLength: 4 }), fc.boolean(), async (edits, partial) => {
        const har = structuredClone(base);
        for (const [path, value] of edits) {
          let o: any = har.log.entries;
          for (const k of path.slice(0, -1)) o = typeof o === 'object' && o !== null ? o[k] : undefined;
          if (typeof o === 'object' && o !== null) o[path[path.length - 1]] = value;
        }
        const out = importCapture(JSON.stringify(har), { allowPartial: partial });
        if (!out.ok) {
          expect(out.error.where).not.toBe('');
          return;
        }
        await analyzeUsable(out.exchanges);
      }),
      { numRuns: 200 },
    );
  });
});

describe('bodies that are not what they claim', () => {
  it('turns non-JSON bodies into problems with the part and reason, not messages or throws', async () => {
    const har = browserHar();
    const [a, b, c] = har.log.entries;
    a.request.postData.text = 'name=x&city=Oslo';
    b.response.content.text = '<html><body>502 Bad Gateway</body></html>';
    b.response.headers = [{ name: 'content-type', value: 'text/html' }];
    c.response.content.text = '{"jsonrpc":"2.0","id":3,"result":';
    const out = imported(importCapture(JSON.stringify(har)));
    const an = await analyzeUsable(out.exchanges);
    expect(an.decoded[0].problems).toEqual([expect.objectContaining({ part: 'request', message: expect.stringMatching(/^not JSON/) })]);
    expect(an.decoded[0].sent).toEqual([expect.objectContaining({ kind: 'invalid' })]);
    expect(an.decoded[1].problems).toEqual([expect.objectContaining({ part: 'response', message: 'response body is text/html, not JSON or an event stream' })]);
    expect(an.decoded[1].received).toEqual([]);
    expect(an.decoded[2].problems).toEqual([expect.objectContaining({ part: 'response', message: expect.stringMatching(/^not JSON/) })]);
  });

  it('decodes base64 bodies holding invalid UTF-8 with U+FFFD in place of the bad bytes', async () => {
    const har = browserHar();
    const e = har.log.entries[2];
    const good = Buffer.from(e.response.content.text, 'utf8');
    const at = good.indexOf('"resultType"');
    // A lone continuation byte, a truncated 3-byte sequence and an overlong encoding, inside a JSON string value.
    const bad = Buffer.concat([good.subarray(0, at), Buffer.from('"x":"'), Buffer.from([0x80, 0xe2, 0x82, 0xc0, 0xaf]), Buffer.from('",'), good.subarray(at)]);
    e.response.content = { size: bad.length, mimeType: 'application/json', text: bad.toString('base64'), encoding: 'base64' };
    // And a header whose base64 sentinel does not hold UTF-8.
    e.request.headers.push({ name: 'mcp-name', value: '=?base64?/w==?=' });
    const out = imported(importCapture(JSON.stringify(har)));
    const body = out.exchanges[2].response!.body!;
    expect(body).toContain('"x":"\uFFFD');
    expect(body).not.toMatch(/[\x80-\x9f]/);
    const a = await analyzeUsable(out.exchanges);
    const res = a.decoded[2].received[0];
    expect(res.kind).toBe('result');
    expect(String(res.result!.x)).toMatch(/^\uFFFD+$/);
  });

  it('notes base64 bodies that are not base64 and imports them as absent', () => {
    const har = browserHar();
    har.log.entries[2].response.content = { size: 10, mimeType: 'application/json', text: '%%% not base64 %%%', encoding: 'base64' };
    const out = imported(importCapture(JSON.stringify(har)));
    expect(out.exchanges[2].response!.body).toBeUndefined();
    expect(out.notes.join(' ')).toMatch(/base64 bodies could not be decoded.*log\.entries\[2\]\.response\.content/);
  });

  it('keeps an event stream cut mid-event as the complete events plus the verbatim tail, and leaves the round unanswered', async () => {
    const har = browserHar();
    const e = har.log.entries[0];
    const answer = JSON.parse(e.response.content.text);
    const progress = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } };
    const tail = `event: message\ndata: ${JSON.stringify(answer).slice(0, 30)}`;
    e.response.headers = [{ name: 'content-type', value: 'text/event-stream' }];
    e.response.content = { size: 0, mimeType: 'text/event-stream', text: `event: message\ndata: ${JSON.stringify(progress)}\n\n${tail}` };
    const out = imported(importCapture(JSON.stringify(har)));
    const res = out.exchanges[0].response!;
    expect(res.events).toEqual([expect.objectContaining({ event: 'message', data: JSON.stringify(progress) })]);
    expect(res.tail).toBe(tail);
    const a = await analyzeUsable(out.exchanges);
    expect(a.decoded[0].received.map((m) => m.kind)).toEqual(['notification']);
    expect(a.decoded[0].responseEmpty).toBe(false);
    const round0 = a.conversations.find((c) => c.exchanges.includes(0))!.rounds[0];
    expect(round0).toMatchObject({ exchange: 0, answer: -1, outcome: 'no-response', stateIssued: null });
  });

  it('reports an event whose data is cut JSON as a problem naming the event', async () => {
    const rec = imported(importCapture(goodJsonl())).exchanges;
    const res = rec[0].response!;
    res.events = [{ t: res.receivedAt, data: '{"jsonrpc":"2.0","method":"notifications/progress"}' }, { t: res.receivedAt + 1, data: res.body!.slice(0, 20) }];
    delete res.body;
    res.headers = [{ name: 'content-type', value: 'text/event-stream' }];
    const a = await analyzeUsable(rec);
    expect(a.decoded[0].problems).toEqual([expect.objectContaining({ part: 'response', at: 1, message: expect.stringMatching(/^event 1: not JSON/) })]);
  });
});
