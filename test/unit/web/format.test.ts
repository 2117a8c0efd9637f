// web/lib/format.ts: the one time formatter.
import { describe, expect, it } from 'vitest';
import { clientLabel, countdown, ms, until } from '../../../web/lib/format.ts';

describe('durations', () => {
  it('never says "60 s": a carry rounds up into the next minute', () => {
    expect(ms(9 * 60_000 + 59_600)).toBe('10 min 0 s');
    expect(ms(59_970)).toBe('1 min 0 s');
    expect(ms(999.6)).toBe('1.00 s');
    for (let t = 0; t < 3 * 3_600_000; t += 997) expect(ms(t)).not.toMatch(/\b60 s|\b60 min|\b24 h/);
  });
  it('keeps short durations precise and long ones coarse', () => {
    expect(ms(12)).toBe('12 ms');
    expect(ms(1400)).toBe('1.40 s');
    expect(ms(123_000)).toBe('2 min 3 s');
    expect(ms(3 * 3_600_000 + 5 * 60_000)).toBe('3 h 5 min');
    expect(ms(null)).toBe('—');
  });
  it('says how long a token stays valid without a 60-second carry', () => {
    const now = Date.parse('2026-12-01T08:00:00Z');
    expect(until('2026-12-01T08:09:59.700Z', now)).toBe('valid for 10 min 0 s');
    expect(until('2026-12-01T07:57:00Z', now)).toBe('expired 3 min 0 s before');
  });
  it('counts a live deadline down in the same words as every other duration', () => {
    const now = 1_000_000;
    expect(countdown(now + 8 * 60_000 + 16_000, now)).toBe('expires in 8 min 16 s');
    expect(countdown(now + 4_200, now)).toBe('expires in 5 s');
    expect(countdown(now - 1, now)).toBe('expired');
  });
});

describe('client labels', () => {
  it('shows a clientInfo as name and version rather than its JSON', () => {
    expect(clientLabel('{"name":"mrtr-inspector","version":"0.1.0"}')).toBe('mrtr-inspector 0.1.0');
    expect(clientLabel('{"name":"claude-ai","title":"Claude","version":"1"}')).toBe('Claude (claude-ai) 1');
    expect(clientLabel('not json')).toBe('not json');
  });
});
