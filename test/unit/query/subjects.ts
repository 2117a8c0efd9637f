// Hand-built conversations and subjects for the filter tests.
import type { Conversation, Finding, Round } from '../../../worker/protocol.js';
import type { FilterSubject } from '../../../worker/query/index.js';

/** A round with every field defaulted; override what the test is about. */
export function round(over: Partial<Round> = {}): Round {
  return {
    exchange: 0, message: 0, requestId: 1, answer: 0, outcome: 'complete', link: null, parent: null,
    inputRequests: null, inputResponses: null, stateSent: null, stateIssued: null, sentAt: 0, answeredAt: 1, ...over,
  };
}

/** A one-round tools/call conversation; override what the test is about. */
export function conversation(over: Partial<Conversation> = {}): Conversation {
  return {
    id: 'c1', method: 'tools/call', name: 'echo', era: '2026-07-28', client: null, exchanges: [0],
    status: 'complete', rounds: [round()], ...over,
  };
}

/** A finding about conversation c1. */
export function finding(rule: string, severity: Finding['severity'] = 'error'): Finding {
  return { rule, severity, exchange: 0, conversation: 'c1', message: 'm', clause: '§1' };
}

/** A subject whose text() is counted, so tests can prove it is read lazily. */
export function subject(c: Conversation, findings: Finding[] = [], text = ''): FilterSubject & { reads: number } {
  const s = { conversation: c, findings, reads: 0, text: () => { s.reads++; return text; } };
  return s;
}
