// A short line for one answer of a round, as tamper tests, probes and reports show it.
import { own } from '../decode/meta.js';
import type { RoundReading } from './types.js';

/** A short line for one answer: the error, the question asked, or the result text. */
export function summarize(r: RoundReading): string {
  switch (r.kind) {
    case 'failed': return r.message;
    case 'error': return `error ${r.error.code}: ${r.error.message}`;
    case 'input_required': {
      const keys = Object.keys(r.inputRequests);
      return keys.length ? `input_required asking ${keys.join(', ')}` : 'input_required (requestState only)';
    }
    case 'complete': {
      const content = own(r.result, 'content');
      const first = Array.isArray(content) ? own(content[0] as Record<string, unknown>, 'text') : undefined;
      return `${own(r.result, 'isError') === true ? 'tool error' : 'complete'}${typeof first === 'string' ? `: ${first.slice(0, 120)}` : ''}`;
    }
  }
}
