// Issue 6, item 3: the app ships a strict Content Security Policy, and every browser test
// runs under it. Inline script and eval are refused, so captured text cannot run. (eval
// is checked in the policy text: code Playwright evaluates is exempt from CSP, so a
// runtime eval probe from here would prove nothing.)
import { expect, test } from './fixtures.ts';

test('the app is served with a strict CSP that refuses inline script and eval', async ({ inspector, page }) => {
  const response = await page.request.get('/');
  const csp = response.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toContain('unsafe-eval');
  expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  const outcome = await page.evaluate(async () => {
    const w = window as unknown as { __inline?: boolean };
    const violations: string[] = [];
    document.addEventListener('securitypolicyviolation', (e) => violations.push(e.violatedDirective));
    const s = document.createElement('script');
    s.textContent = 'window.__inline = true';
    document.body.append(s);
    // A violation is reported asynchronously; give the event loop a turn to deliver it.
    await new Promise((r) => setTimeout(r, 100));
    return { inline: w.__inline === true, violations };
  });
  expect(outcome.inline).toBe(false);
  expect(outcome.violations.some((v) => v.startsWith('script-src'))).toBe(true);
  // The app itself still works under the policy: a demo call is captured and threaded.
  await page.getByTestId('call-demo').click();
  await expect(page.locator('[data-testid="conversation"]')).toHaveCount(1);
  void inspector;
});
