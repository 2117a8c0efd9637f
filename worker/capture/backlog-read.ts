// Reading one relay backlog answer (POST /relay/api/backlog, server/relay/page-api.ts) into
// record batches: the same streaming reader as a page import (importCaptureStream), and the
// careful JSONL reader for text the streaming one declines. The relay feed (relay-feed.ts)
// runs it in the analysis worker. (Tried and measured: a reader worker of its own, to parse
// on the other core, made a 20k backlog listed later, 4.3-5.6 s against 4.0-4.3 s: the
// page, the relay and the analysis already keep both cores of a 2-core machine busy, and
// posting the records costs the reader a structured clone of each.)
import type { ExchangeRecord } from '../protocol.js';
import { decodedPieces, importCaptureStream } from './import-stream.js';
import { readJsonl } from './jsonl.js';

/** The backlog answer's header naming the drain, to acknowledge it by. */
const DRAIN_HEADER = 'mrtr-drain';
/** "1" when the relay left lines out of this batch: drain again once it is acknowledged. */
const MORE_HEADER = 'mrtr-backlog-more';

/**
 * Records per batch: the first batch small, so the first screen is listed early; then each
 * twice the one before, up to the last: every batch costs the analysis a step and the page
 * a read of its view, so a 20k backlog comes in 5 batches, not 10 of 2,000.
 */
export const BACKLOG_BATCHES = { first: 1000, growth: 2, max: 16000 } as const;

/**
 * The longest the reading holds the worker before it gives the event loop a turn. Bytes
 * already received resolve the stream's reads as microtasks, so a drain read on without a
 * turn until a batch was laid in: the page's reads of its view, and the analysis of what
 * was laid, waited behind it. (The turns alone did not bring the first screen forward on a
 * 20k backlog; reading the list first at the page's start did: web/lib/inspector.svelte.ts.)
 */
export const READ_SLICE_MS = 30;

/** What a drain said about itself: its id (null when the relay named none) and whether the relay holds more. */
export interface BacklogHead {
  drain: string | null;
  more: boolean;
  /** The answer's size in bytes as received (what the feed's memory bound counts). */
  bytes: number;
}

/**
 * POSTs to `url` and hands the records of the answer to `onBatch`, in order, each batch
 * awaited. Resolves to the drain's head once every record was handed over, or null when the
 * relay answered without a backlog (not ok, no body); throws when the answer broke off.
 */
export async function readBacklog(fetchFn: typeof fetch, url: string, onBatch: (records: ExchangeRecord[]) => Promise<void> | void): Promise<BacklogHead | null> {
  const res = await fetchFn(url, { method: 'POST' });
  if (!res.ok || !res.body) return null;
  const head: BacklogHead = { drain: res.headers.get(DRAIN_HEADER), more: res.headers.get(MORE_HEADER) === '1', bytes: 0 };
  // The bytes are kept for the careful reader, should the streaming one decline the text
  // (bytes live outside the JS heap, where 30 MB of kept strings would be copied by every
  // garbage collection while the drain is read), but only until the streaming reader
  // chose JSONL, as it does for every backlog the relay writes: it then declines only text
  // with no record in it, which the careful reader would find none in either. Kept to the
  // end, a 64 MiB drain's bytes pressed the collector into full collections of every
  // record held (the engine counts memory outside the heap towards its next collection).
  let bytes: Uint8Array[] | null = [];
  const chosen = (format: 'har' | 'jsonl') => { if (format === 'jsonl') bytes = null; };
  const opts = { allowPartial: true, batchSize: BACKLOG_BATCHES.first, batchGrowth: BACKLOG_BATCHES.growth, batchMax: BACKLOG_BATCHES.max, chosen };
  const end = await importCaptureStream(sliced(decodedPieces(res.body, (b) => { bytes?.push(b); head.bytes += b.byteLength; }), READ_SLICE_MS), opts, async (b) => onBatch(b));
  // Unusual text the streaming reader declines: the whole of it through the careful reader.
  if (end.kind !== 'done' && bytes !== null) {
    const records = readJsonl(textOf(bytes)).exchanges;
    if (records.length) await onBatch(records);
  }
  return head;
}

// The pieces, with a turn of the event loop whenever reading them (and what the reader does
// with each before asking for the next) took `sliceMs`.
async function* sliced<T>(pieces: AsyncIterable<T>, sliceMs: number): AsyncGenerator<T> {
  let since = performance.now();
  for await (const piece of pieces) {
    yield piece;
    if (performance.now() - since < sliceMs) continue;
    await new Promise((r) => setTimeout(r, 0));
    since = performance.now();
  }
}

// The kept bytes as one text (the careful reader's input).
function textOf(bytes: readonly Uint8Array[]): string {
  const decoder = new TextDecoder();
  let text = '';
  for (const b of bytes) text += decoder.decode(b, { stream: true });
  return text + decoder.decode();
}
