// Naming the other tool in the tamper panel (web/lib/console-tools.svelte.ts, TamperPanel.svelte)
// while the round's first plan is still being made or filed: the tests appear before the plan
// is filed, so a user types the name and presses Enter then. The "Use it" button stays enabled
// (a disabled default button makes the browser drop the Enter), and plans are made one at a
// time in the order asked, so the older answer never lands over the newer one.
import { render } from 'svelte/server';
import { describe, expect, it } from 'vitest';
import TamperPanel from '../../../web/components/console/TamperPanel.svelte';
import type { ConsoleHost } from '../../../web/lib/console-host.ts';
import { Tamper } from '../../../web/lib/console-tools.svelte.ts';
import type { TamperView } from '../../../worker/facade.ts';

function gate(): { wait: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const wait = new Promise<void>((r) => { open = r; });
  return { wait, open };
}

const viewFor = (other: string | null): TamperView => ({
  subject: 'round #2 of the setup_wizard call',
  url: 'http://127.0.0.1/demo/mcp',
  tests: [{ test: 'other-tool', label: 'Present the token on another tool', state: other ? 'ready' : 'not-run', detail: other ? `on ${other}` : 'name another tool' }],
  report: null,
  session: null,
});

const flush = async (): Promise<void> => { for (let i = 0; i < 10; i++) await Promise.resolve(); };

function setup() {
  const plans: (string | null)[] = [];
  /** Each plan's answer waits for its own gate; filing the first plan waits for `filing`. */
  const answers: ReturnType<typeof gate>[] = [];
  const filing = gate();
  let filed = 0;
  const api = {
    tamper: {
      fromCapture: async (_round: string, _retry: string | null, other?: { params: Record<string, unknown> }) => {
        const name = typeof other?.params.name === 'string' ? other.params.name : null;
        plans.push(name);
        const g = gate();
        answers.push(g);
        await g.wait;
        return { ok: true as const, value: viewFor(name) };
      },
    },
  };
  const host = {
    api: async () => api,
    say: () => undefined,
    filed: async () => { if (filed++ === 0) await filing.wait; },
  } as unknown as ConsoleHost;
  return { tamper: new Tamper(host), plans, answers, filing };
}

describe('naming the other tool while the first plan is made', () => {
  it('plans again once the first plan is done, and the retarget\'s answer is the one shown', async () => {
    const { tamper, plans, answers, filing } = setup();
    const first = tamper.fromCapture('round-2', null);
    await flush();
    expect(plans).toEqual([null]);
    answers[0]!.open();
    await flush();
    // The tests are on screen; the plan is still being filed.
    expect(tamper.view?.tests[0]?.state).toBe('not-run');
    expect(tamper.busy).toBe('planning');
    expect(tamper.retargetable).toBe(true);

    const second = tamper.retarget('confirm_action', '{"action": "tamper-test"}');
    await flush();
    expect(plans).toEqual([null]); // waits for the first plan

    filing.open();
    await first;
    await flush();
    expect(plans).toEqual([null, 'confirm_action']);
    answers[1]!.open();
    await second;
    expect(tamper.other?.params).toEqual({ name: 'confirm_action', arguments: { action: 'tamper-test' } });
    expect(tamper.view?.tests[0]).toMatchObject({ state: 'ready', detail: 'on confirm_action' });
    expect(tamper.busy).toBeNull();
  });

  it('plans one at a time in the order asked when the tool is named twice in a row: the last one is shown', async () => {
    const { tamper, plans, answers, filing } = setup();
    filing.open();
    const first = tamper.fromCapture('round-2', null);
    const second = tamper.retarget('confirm_action', '{}');
    const third = tamper.retarget('setup_wizard', '{}');
    await flush();
    expect(plans).toEqual([null]);
    answers[0]!.open();
    await first;
    await flush();
    expect(plans).toEqual([null, 'confirm_action']);
    answers[1]!.open();
    await second;
    await flush();
    expect(plans).toEqual([null, 'confirm_action', 'setup_wizard']);
    answers[2]!.open();
    await third;
    expect(tamper.view?.tests[0]?.detail).toBe('on setup_wizard');
    expect(tamper.other?.params.name).toBe('setup_wizard');
  });

  it('says what is wrong at once, without waiting, when the name or the arguments are not usable', async () => {
    const { tamper, plans, answers } = setup();
    void tamper.fromCapture('round-2', null);
    await flush();
    answers[0]!.open();
    await flush();
    await tamper.retarget('  ', '{}');
    expect(tamper.error).toBe('Name the other tool to present the token on.');
    await tamper.retarget('confirm_action', '[1]');
    expect(tamper.error).toMatch(/must be a JSON object/);
    expect(plans).toEqual([null]);
  });
});

describe('the "Use it" button', () => {
  const panel = (busy: string | null): string => {
    const stub = { view: viewFor(null), busy, error: null, other: null, retargetable: busy === null || busy === 'planning' } as unknown as Tamper;
    return render(TamperPanel, { props: { tamper: stub } }).body;
  };
  const useIt = (html: string): string => /<button[^>]*data-testid="tamper-other-set"[^>]*>/.exec(html)?.[0] ?? '';

  it('is enabled while a plan is made (so Enter in the fields submits), disabled while tests run', () => {
    expect(useIt(panel('planning'))).not.toBe('');
    expect(useIt(panel('planning'))).not.toMatch(/disabled/);
    expect(useIt(panel(null))).not.toMatch(/disabled/);
    expect(useIt(panel('all'))).toMatch(/disabled/);
    expect(useIt(panel('flip-byte'))).toMatch(/disabled/);
  });
});
