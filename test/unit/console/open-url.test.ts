import { describe, expect, it } from 'vitest';
import { openUrlProblem } from '../../../worker/console/open-url.js';

describe('which URLs the Console opens for a URL elicitation', () => {
  const page = 'http://127.0.0.1:5173';
  it("refuses the inspector's own origin, by either loopback name, including relay and page-API URLs", () => {
    for (const url of [`${page}/`, `${page}/relay/TOKEN/evil`, `${page}/relay/api/forward/x`, 'http://localhost:5173/relay/api/info', 'http://[::1]:5173/x']) {
      expect(openUrlProblem(url, page), url).toMatch(/inspector's own origin/);
    }
  });
  it('refuses what is not http(s) or not a URL', () => {
    expect(openUrlProblem('javascript:alert(1)', page)).toMatch(/Only http and https/);
    expect(openUrlProblem('data:text/html,x', page)).toMatch(/Only http and https/);
    expect(openUrlProblem('/relay/api/info', page)).toMatch(/Not an absolute URL/);
  });
  it('opens other origins, other loopback ports included', () => {
    for (const url of ['https://example.com/mrtr-demo/dashboard', 'http://127.0.0.1:3000/auth', 'http://localhost:5174/', 'https://127.0.0.1:5173/']) {
      expect(openUrlProblem(url, page), url).toBeNull();
    }
  });
});
