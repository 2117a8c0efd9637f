import { describe, expect, it } from 'vitest';
import { explainSendFailure } from '../../../worker/console/send-failure.js';

describe('explainSendFailure', () => {
  const url = 'http://127.0.0.1:3999/mcp';
  it('names a refused connection and says to start the server', () => {
    expect(explainSendFailure('connect ECONNREFUSED 127.0.0.1:3999', url)).toMatch(/^Refused: nothing listens at 127\.0\.0\.1:3999\. Start the server/);
  });
  it('names a timeout, a TLS failure, a CORS block and an unknown host', () => {
    expect(explainSendFailure('The operation was aborted due to timeout', url)).toMatch(/^Timed out/);
    expect(explainSendFailure('self-signed certificate in certificate chain', 'https://x.test/mcp')).toMatch(/^TLS failed: .*accept it/);
    expect(explainSendFailure('blocked by CORS policy', url)).toMatch(/^Blocked by CORS: .*via relay/);
    expect(explainSendFailure('getaddrinfo ENOTFOUND nope.invalid', 'http://nope.invalid/mcp')).toMatch(/^Unknown host: nope\.invalid/);
  });
  it('turns the browser\'s bare "Failed to fetch" into the possible causes and the way to tell them apart', () => {
    const s = explainSendFailure('Failed to fetch', url);
    expect(s).toContain('refused');
    expect(s).toContain('CORS');
    expect(s).toContain('via relay');
    expect(s).not.toContain('HTTP 0');
  });
});
