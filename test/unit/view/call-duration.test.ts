import { describe, expect, it } from 'vitest';
import { callDuration } from '../../../worker/view/call-duration.js';

describe('how long a call took', () => {
  it('runs from the first request to the last answer of any round, whatever order the rounds are in', () => {
    expect(callDuration([{ sentAt: 1000, answeredAt: 1500 }, { sentAt: 2000, answeredAt: 9000 }, { sentAt: 3000, answeredAt: 4000 }])).toBe(8000);
  });

  it('is not lengthened by a last round that was sent and never answered', () => {
    expect(callDuration([{ sentAt: 1000, answeredAt: 2000 }, { sentAt: 60_000, answeredAt: null }])).toBe(1000);
  });

  it('is unknown while nothing was answered', () => {
    expect(callDuration([{ sentAt: 1000, answeredAt: null }])).toBeNull();
    expect(callDuration([])).toBeNull();
  });
});
