// Sends a probe's requests the way the tamper tests do: together, each linked under a
// record id with the tamper origin and the probe's run id, so the saved capture shows every
// probe's exchanges as one labelled group. Returns the records and each answer's reading.
import type { ExchangeRecord, JsonRpcId } from '../protocol.js';
import { consoleRecord, linkOrigin, newRecordId, newRunId, readRound, sendSafely } from '../console/exchange.js';
import type { ConsoleRequest, ConsoleResponse, RoundReading, Transport } from '../console/types.js';

/** What one probe's sends came back with. */
export interface ProbeExchange {
  run: string;
  responses: ConsoleResponse[];
  readings: RoundReading[];
  records: ExchangeRecord[];
}

/**
 * Sends `requests` (ids alongside) in parallel under one tamper run, then `control` (a
 * fresh first round, to tell "started over" from "went on"), whose answer comes last.
 */
export async function sendProbe(send: Transport, sent: readonly { request: ConsoleRequest; id: JsonRpcId }[], opts: { session?: string; derivedFrom?: string; control?: { request: ConsoleRequest; id: JsonRpcId } } = {}): Promise<ProbeExchange> {
  const run = newRunId();
  const origin = { kind: 'tamper' as const, run };
  const requests = [...sent, ...(opts.control ? [opts.control] : [])];
  const ids = requests.map(() => newRecordId());
  const linked = (r: { request: ConsoleRequest }, i: number) => sendSafely(send, { ...r.request, link: { id: ids[i], ...(opts.derivedFrom !== undefined ? { derivedFrom: opts.derivedFrom } : {}), ...linkOrigin(origin) } });
  const responses = await Promise.all(sent.map(linked));
  if (opts.control) responses.push(await linked(opts.control, sent.length));
  const records = requests.map((r, i) =>
    consoleRecord(r.request, responses[i], { id: ids[i], seq: 0, origin, ...(opts.session !== undefined ? { session: opts.session } : {}), ...(opts.derivedFrom !== undefined ? { derivedFrom: opts.derivedFrom } : {}) }));
  return { run, responses, records, readings: records.map((rec, i) => readRound(rec, requests[i].id)) };
}
