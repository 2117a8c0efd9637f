// How views find an exchange by seq and a conversation's findings: a type of its own, so the
// views that read it (conversation-view, task-card) need not import each other.
import type { DecodedExchange, ExchangeRecord, Finding } from '../protocol.js';

/** Index of an analysis by exchange seq, and its findings by conversation (a live session
 *  answers both from its engine, without building maps). */
export interface AnalysisIndex {
  bySeq: { get(seq: number): { record: ExchangeRecord; decoded: DecodedExchange } | undefined };
  findingsByConversation: { get(id: string): Finding[] | undefined };
}
