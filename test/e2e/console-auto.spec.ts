// Issue 5, item 2, auto mode: the Console answers with the answers given before (to the same
// call of the same server) and stops only on questions it has no answer for. Against the
// embedded demo's three-round wizard (name, plan, confirm).
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { createMcpHandler, createRequestStateCodec, inputRequired, inputResponse, McpServer } from '@modelcontextprotocol/server';
import { serveHandler, type RunningDemo } from '../peers/serve-demo.ts';
import { expect, test } from './fixtures.ts';

const WIZARD_DONE = 'Created workspace "Acme Labs" on the pro plan.';

async function connect(page: Page, url = '/demo/mcp', tool = 'setup_wizard'): Promise<void> {
  await page.getByTestId('toggle-console').click();
  await page.getByTestId('console-url').fill(url);
  await page.getByTestId('console-connect').click();
  await expect(page.getByTestId('server-info')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('console-target').selectOption(`t:${tool}`);
}

const question = (page: Page, key: string) => page.locator(`[data-testid="questions"] [data-testid="question"][data-key="${key}"]`);

/**
 * Starts the call; resolves once this call's step-through stopped (paused or finished). The
 * view of the call before stays on screen until the new one arrives: every call's first id
 * differs, so the first round's text changing tells them apart.
 */
async function call(page: Page, status: 'paused' | 'complete', rounds: number): Promise<void> {
  const first = page.locator('[data-testid="step-round"][data-round="0"]');
  const before = (await first.count()) > 0 ? await first.textContent() : null;
  await page.getByTestId('console-start').click();
  if (before !== null) await expect(first).not.toHaveText(before);
  await expect(page.getByTestId('step-round')).toHaveCount(rounds);
  await expect(page.getByTestId('step')).toHaveAttribute('data-status', status);
}

/** Answers the wizard's name and plan by hand and sends each: paused at confirm. */
async function answerNameAndPlan(page: Page): Promise<void> {
  await question(page, 'name').getByLabel('Workspace name').fill('Acme Labs');
  await question(page, 'name').getByTestId('answer-accept').click();
  await page.getByTestId('send-retry').click();
  await expect(page.getByTestId('step-round')).toHaveCount(2);
  await question(page, 'plan').getByLabel('Plan').selectOption('pro');
  await question(page, 'plan').getByTestId('answer-accept').click();
  await page.getByTestId('send-retry').click();
  await expect(page.getByTestId('step-round')).toHaveCount(3);
  await expect(question(page, 'confirm')).toHaveAttribute('data-answered', 'false');
}

async function answerConfirm(page: Page): Promise<void> {
  await question(page, 'confirm').getByLabel('Create the workspace').check();
  await question(page, 'confirm').getByTestId('answer-accept').click();
  await page.getByTestId('send-retry').click();
  await expect(page.getByTestId('step')).toHaveAttribute('data-status', 'complete');
  await expect(page.getByTestId('step-round').last()).toContainText(WIZARD_DONE);
}

test('a second run of the same call in auto mode runs through on the saved answers without stopping', async ({ inspector: _, page }) => {
  await connect(page);
  await call(page, 'paused', 1);
  await answerNameAndPlan(page);
  await answerConfirm(page);

  // Auto mode, switched on from the keyboard: the same call again finishes in one go, its
  // retries carrying the answers given by hand.
  await page.getByTestId('auto-mode').focus();
  await page.keyboard.press('Space');
  await expect(page.getByTestId('auto-mode')).toBeChecked();
  await call(page, 'complete', 4);
  await expect(page.getByTestId('step-auto')).toBeVisible();
  await expect(page.getByTestId('questions')).toHaveCount(0);
  await expect(page.getByTestId('step-round').last()).toContainText(WIZARD_DONE);
  await expect(page.locator('[data-testid="step-round"][data-round="1"] pre').first()).toContainText('"name": "Acme Labs"');

  // Another tool's question of the same key asks something else: auto mode stops on it.
  await page.getByTestId('console-target').selectOption('t:confirm_action');
  await page.locator('[data-field="action"] input').fill('deploy');
  await call(page, 'paused', 1);
  await expect(question(page, 'confirm')).toHaveAttribute('data-answered', 'false');
  await expect(page.getByTestId('preview')).toContainText('1 question still open: confirm');
});

test('auto mode stops on a question it has no answer for; once answered, the next run runs through', async ({ inspector: _, page }) => {
  await connect(page);
  await page.getByTestId('auto-mode').check();
  // Nothing saved yet: every question is new, so it stops at each.
  await call(page, 'paused', 1);
  await answerNameAndPlan(page); // left paused at confirm: never answered

  // Run 2 answers name and plan on its own and stops at the new question.
  await call(page, 'paused', 3);
  await expect(page.locator('[data-testid="step-round"][data-round="1"] pre').first()).toContainText('"name": "Acme Labs"');
  await expect(page.locator('[data-testid="step-round"][data-round="2"] pre').first()).toContainText('"plan": "pro"');
  await expect(page.getByTestId('questions').getByTestId('question')).toHaveCount(1);
  await expect(question(page, 'confirm')).toHaveAttribute('data-answered', 'false');
  await answerConfirm(page);

  // Run 3 has every answer: it runs through.
  await call(page, 'complete', 4);
  await expect(page.getByTestId('step-round').last()).toContainText(WIZARD_DONE);
});

test('auto mode remembers its answers across a reload: the same call runs through without asking', async ({ inspector, page }) => {
  await connect(page);
  await call(page, 'paused', 1);
  await answerNameAndPlan(page);
  await answerConfirm(page);

  await page.reload();
  await inspector.waitUntilCapturing();
  await connect(page);
  await page.getByTestId('auto-mode').check();
  await call(page, 'complete', 4);
  await expect(page.getByTestId('questions')).toHaveCount(0);
  await expect(page.getByTestId('step-round').last()).toContainText(WIZARD_DONE);

  // Forgotten, here and in storage: after another reload the next run asks again.
  await page.getByTestId('forget-answers').click();
  await expect.poll(() => storedAnswers(page)).toBe('[]');
  await page.reload();
  await inspector.waitUntilCapturing();
  await connect(page);
  await page.getByTestId('auto-mode').check();
  await call(page, 'paused', 1);
  await expect(question(page, 'name')).toHaveAttribute('data-answered', 'false');
});

/** auto mode's answers as IndexedDB holds them (the settings store), as JSON text. */
function storedAnswers(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const open = indexedDB.open('mrtr-inspector');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const get = open.result.transaction('settings').objectStore('settings').get('consoleAnswers');
          get.onsuccess = () => {
            open.result.close();
            resolve(JSON.stringify(get.result ?? null));
          };
          get.onerror = () => reject(get.error);
        };
      }),
  );
}

const CORS = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*', 'access-control-allow-methods': 'POST, GET, OPTIONS', 'access-control-expose-headers': '*' };

/** A server whose sign_in tool asks one form: an account, a PIN, and a one-time code; then signs in. */
async function startSignIn(): Promise<RunningDemo> {
  const codec = createRequestStateCodec<{ step: number }>({ key: randomBytes(32).toString('hex'), ttlSeconds: 300 });
  const factory = () => {
    const server = new McpServer({ name: 'sign-in', version: '1.0.0' }, { requestState: { verify: codec.verify } });
    server.registerTool('sign_in', { description: 'asks an account, a PIN and a code' }, async (ctx) => {
      if (!ctx.mcpReq.requestState()) {
        const requestedSchema = {
          type: 'object' as const,
          properties: { account: { type: 'string' as const, title: 'Account' }, pin: { type: 'string' as const, title: 'PIN' }, code: { type: 'string' as const, title: 'One-time code (OTP)' } },
          required: ['account', 'pin', 'code'],
        };
        return inputRequired({ inputRequests: { login: inputRequired.elicit({ message: 'Sign in', requestedSchema }) }, requestState: await codec.mint({ step: 1 }, ctx) });
      }
      const a = inputResponse(ctx.mcpReq.inputResponses, 'login');
      const account = a.kind === 'elicit' ? String(a.content?.account ?? '?') : '?';
      return { content: [{ type: 'text' as const, text: `Signed in as ${account}.` }] };
    });
    return server;
  };
  const mcp = createMcpHandler(factory, { responseMode: 'json', keepAliveMs: 0 });
  return serveHandler({
    async fetch(req) {
      if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: CORS });
      const res = await mcp.fetch(req);
      const headers = new Headers(res.headers);
      for (const [k, v] of Object.entries(CORS)) headers.set(k, v);
      return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
    },
    close: () => mcp.close(),
  });
}

test('a secret-looking field is never stored: after a reload it is asked again, saying why, with the rest filled in', async ({ inspector, page }) => {
  const server = await startSignIn();
  try {
    const [pin, code] = ['4321', '987654'];
    await connect(page, server.url, 'sign_in');
    await call(page, 'paused', 1);
    const login = question(page, 'login');
    await login.getByLabel('Account').fill('alice');
    await login.getByLabel('PIN').fill(pin);
    await login.getByLabel('One-time code (OTP)').fill(code);
    await login.getByTestId('answer-accept').click();
    await page.getByTestId('send-retry').click();
    await expect(page.getByTestId('step')).toHaveAttribute('data-status', 'complete');
    await expect(page.getByTestId('step-round').last()).toContainText('Signed in as alice.');

    // Stored: the account, but neither the PIN nor the code.
    await expect.poll(() => storedAnswers(page)).toContain('alice');
    const stored = await storedAnswers(page);
    expect(stored).not.toContain(pin);
    expect(stored).not.toContain(code);

    await page.reload();
    await inspector.waitUntilCapturing();
    await connect(page, server.url, 'sign_in');
    await page.getByTestId('auto-mode').check();
    await call(page, 'paused', 1);
    await expect(login).toHaveAttribute('data-answered', 'false');
    await expect(login.getByTestId('not-remembered')).toContainText('Not remembered: looks secret (pin, code)');
    await expect(login.getByLabel('Account')).toHaveValue('alice');
    await expect(login.getByLabel('PIN')).toHaveValue('');
    await login.getByLabel('PIN').fill(pin);
    await login.getByLabel('One-time code (OTP)').fill(code);
    await login.getByTestId('answer-accept').click();
    await page.getByTestId('send-retry').click();
    await expect(page.getByTestId('step')).toHaveAttribute('data-status', 'complete');
    expect(await storedAnswers(page)).not.toContain(pin);
  } finally {
    await server.close();
  }
});
