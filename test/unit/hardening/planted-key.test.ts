// Issue 6: a key given to the CLI with --key is never printed. Random keys are planted and
// every output is searched for them (whole, head, tail, base64, hex): stdout, stderr and
// --output files of lint (text, json, sarif, junit) and replay (text, json, junit), with
// the right key, a wrong one and several; and every error path that runs with a key given
// (unreadable keys, unreadable or damaged files, usage errors, an unwritable --output, an
// unreachable target). test/unit/cli/cli.test.ts covers a wrong key in the four lint formats
// and one bad hex key; this file covers the rest. Each search is shown able to fail: where a
// key really is in the output (a token payload, a file name, a recorded answer), it is found.
// Last, the page's keyring: a key typed as hex:, base64: or utf8: is redacted from exports
// in every spelling a server may echo it in, not only as typed (and an API key sent as a
// query or body field is redacted like the API-key header).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMcpHandler, createRequestStateCodec, inputRequired, McpServer } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportHar, exportJsonl } from '../../../worker/capture/index.js';
import { elicitResult } from '../../../worker/console/form.js';
import { createStepper } from '../../../worker/console/stepper.js';
import { fetchTransport } from '../../../worker/console/transport.js';
import { toCurl, toFetch } from '../../../worker/export/index.js';
import { Keyring } from '../../../worker/services/keyring.js';
import { capture } from '../../support/capture-builder.js';
import { b64Json, jwsHs256, unix } from '../../support/tokens.js';
import { serveHandler, toolCall, unreachableUrl, type Running } from '../console/servers.js';
import { buildCliIfStale, runCli, runCliBatch, type CliRun } from '../../support/cli-process.js';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const random = (n: number) => [...randomBytes(n)].map((b) => ALNUM[b % ALNUM.length]).join('');

const KEY = random(40);
const WRONG = random(40);
const HEX = randomBytes(32).toString('hex');
const B64 = randomBytes(32).toString('base64');
/** Every planted secret, each in the spellings a leak could take. */
const NEEDLES = [KEY, WRONG, HEX, B64].flatMap((s) => [s, s.slice(0, 12), s.slice(-12), Buffer.from(s).toString('base64'), Buffer.from(s).toString('hex')]);

/** The needles found in a run's outputs (stdout, stderr, and the --output file's text). */
function leaks(...outputs: string[]): string[] {
  const all = outputs.join('\n');
  return NEEDLES.filter((n) => all.includes(n));
}


/** A server whose tokens are signed with KEY: vault_open asks for a PIN, then says `text`. */
async function serveVault(text = 'The vault is open.'): Promise<Running> {
  const codec = createRequestStateCodec<{ step: number }>({ key: KEY, ttlSeconds: 300 });
  const factory = () => {
    const server = new McpServer({ name: 'vault', version: '1.0.0' }, { requestState: { verify: codec.verify } });
    server.registerTool('vault_open', { description: 'asks for a PIN, then opens' }, async (ctx) => {
      if (!ctx.mcpReq.requestState()) {
        return inputRequired({
          inputRequests: { pin: inputRequired.elicit({ message: 'PIN?', requestedSchema: { type: 'object', properties: { pin: { type: 'string' } }, required: ['pin'] } }) },
          requestState: await codec.mint({ step: 1 }, ctx),
        });
      }
      return { content: [{ type: 'text' as const, text }] };
    });
    return server;
  };
  return serveHandler(createMcpHandler(factory, { responseMode: 'json', keepAliveMs: 0 }));
}

let dir: string;
let vault: Running;
let recorded: string; // a real vault_open call, tokens signed with KEY
let jws: string; // a builder capture whose token is an HS256 JWS under KEY
let leaky: string; // an unprotected token whose payload holds KEY (positive control)
beforeAll(async () => {
  buildCliIfStale();
  dir = mkdtempSync(join(tmpdir(), 'mrtr-planted-'));
  vault = await serveVault();
  const stepper = createStepper({ send: fetchTransport({ timeoutMs: 20_000 }) });
  await stepper.start({ url: vault.url, request: toolCall('vault_open') });
  stepper.answer('pin', elicitResult('accept', { pin: '0000' }));
  expect((await stepper.send()).status).toBe('complete');
  recorded = join(dir, 'vault.har');
  writeFileSync(recorded, exportHar(stepper.records(), { sanitize: false }));
  const write = (name: string, token: string) => {
    const b = capture();
    const first = b.call('tools/call', { name: 'vault_open', arguments: {} }).inputRequired({ pin: { method: 'roots/list', params: {} } }, token);
    b.retry(first, { pin: { roots: [] } }).complete();
    writeFileSync(join(dir, name), exportHar(b.build(), { sanitize: false }));
    return join(dir, name);
  };
  jws = write('jws.har', jwsHs256(KEY, { step: 1, exp: unix(Date.parse('2026-11-30T12:05:00Z')) }));
  leaky = write('leaky.har', b64Json({ step: 1, note: `the key is ${KEY}` }));
}, 120_000);
afterAll(async () => {
  await vault?.close();
});

describe('lint never prints a planted key', () => {
  it('in any format, on stdout or in --output, with the right key, a wrong one, binary ones, or several', async () => {
    const all = [WRONG, KEY, `hex:${HEX}`, `base64:${B64}`];
    const cases: { args: string[]; what: string; out?: string }[] = [];
    for (const [c, capturePath] of [recorded, jws].entries()) {
      for (const keys of [[KEY], [WRONG], all]) {
        for (const format of ['text', 'json', 'sarif', 'junit']) {
          const args = ['lint', capturePath, '--format', format, ...keys.flatMap((k) => ['--key', k])];
          const what = `${capturePath} ${format} ${keys.length} key(s)`;
          cases.push({ args, what });
          if (keys === all) {
            const out = join(dir, `out-${c}.${format}`);
            cases.push({ args: [...args, '--output', out], what: `${what} --output`, out });
          }
        }
      }
    }
    // One case in a process of its own, as a user runs it; the rest share one process.
    const runs = [await runCli(...cases[0].args), ...(await runCliBatch(cases.slice(1).map((c) => c.args)))];
    for (const [i, r] of runs.entries()) {
      const { what, out } = cases[i];
      expect([0, 1], `${what}: ${r.stderr}`).toContain(r.code);
      const outputs = [r.stdout, r.stderr];
      if (out === undefined) expect(r.stdout, what).not.toBe('');
      else outputs.push(readFileSync(out, 'utf8'));
      expect(leaks(...outputs), what).toEqual([]);
    }
    // The right key was really used: its tokens verify; under the wrong one they do not.
    const verified = await runCliBatch([[recorded, KEY], [jws, KEY], [recorded, WRONG]].map(([p, key]) => ['lint', p, '--format', 'json', '--key', key]));
    expect(verified.map((r) => JSON.parse(r.stdout).conversations[0].rounds[0].requestState.verified)).toEqual([true, true, false]);
  }, 240_000);

  it('in any error message: unreadable keys, unreadable or damaged files, usage errors, an unwritable --output', async () => {
    const bad = join(dir, 'broken.har');
    writeFileSync(bad, '{"log": {"entries": [\n  {"request": ');
    const binary = join(dir, 'binary.har');
    writeFileSync(binary, randomBytes(2048));
    const cut = join(dir, 'cut.har');
    writeFileSync(cut, readFileSync(recorded, 'utf8').slice(0, -400));
    const cases: string[][] = [
      ['lint', recorded, '--key', `hex:${KEY}`], // not hex digits
      ['lint', recorded, '--key', `hex:${HEX}a`], // an odd number of digits
      ['lint', recorded, '--key', `base64:${KEY}!!`], // not base64
      ['lint', recorded, '--key', KEY, '--key', ''], // empty
      ['lint', recorded, '--key', WRONG, '--key', `hex:${HEX}`, '--key', `b64:${B64}~`],
      ['lint', join(dir, 'missing.har'), '--key', KEY],
      ['lint', dir, '--key', KEY],
      ['lint', bad, '--key', KEY],
      ['lint', binary, '--key', KEY],
      ['lint', cut, '--key', KEY],
      ['lint', cut, '--key', KEY, '--allow-partial'],
      ['lint', recorded, '--key', KEY, '--format', 'xml'],
      ['lint', recorded, '--key', KEY, '--max-rounds', 'lots'],
      ['lint', recorded, 'extra.har', '--key', KEY],
      ['lint', recorded, '--key', KEY, '--no-such-option'],
      ['lint', '--key', KEY],
      // A key with a space, not quoted: the shell splits it, and its second half arrives as an argument.
      ['lint', recorded, '--key', KEY.slice(0, 20), KEY.slice(20)],
      ['--key', KEY.slice(0, 20), KEY.slice(20), 'lint', recorded],
      ['lint', recorded, '--key', KEY, '--output', dir],
      ['lint', recorded, `--key=${KEY}`, '--output', join(dir, 'no', 'such', 'dir', 'out.txt')],
    ];
    const runs = [await runCli(...cases[0]), ...(await runCliBatch(cases.slice(1)))];
    for (const [i, r] of runs.entries()) {
      const args = cases[i];
      expect(r.stderr, args.join(' ')).not.toBe('');
      expect(leaks(r.stdout, r.stderr), args.join(' ')).toEqual([]);
    }
  }, 240_000);

  it('is a search that can fail: the key is found where it really is in the output', async () => {
    const out = join(dir, 'leaky.json');
    const r = await runCli('lint', leaky, '--format', 'json', '--key', KEY, '--output', out);
    expect(leaks(readFileSync(out, 'utf8'))).toContain(KEY);
    expect(leaks((await runCli('lint', leaky, '--format', 'json')).stdout)).toContain(KEY);
    expect(leaks(r.stderr, (await runCli('lint', join(dir, `${KEY}.har`))).stderr)).toContain(KEY);
  }, 60_000);
});

describe('replay never prints a planted key', () => {
  it('in any format, on stdout or in --output, with the right key or a wrong one', async () => {
    const cases: { args: string[]; what: string; rightKey: boolean; out?: string }[] = [];
    for (const keys of [[KEY], [WRONG, `hex:${HEX}`]]) {
      for (const format of ['text', 'json', 'junit']) {
        const args = ['replay', recorded, '--target', vault.url, '--format', format, ...keys.flatMap((k) => ['--key', k])];
        const what = `${format} ${keys.length} key(s)`;
        const out = join(dir, `replay-${keys.length}.${format}`);
        cases.push({ args, what, rightKey: keys[0] === KEY }, { args: [...args, '--output', out], what: `${what} --output`, rightKey: keys[0] === KEY, out });
      }
    }
    const runs = [await runCli(...cases[0].args), ...(await runCliBatch(cases.slice(1).map((c) => c.args)))];
    for (const [i, r] of runs.entries()) {
      const { what, rightKey, out } = cases[i];
      // Under the wrong keys the new traffic's tokens fail verification: an error finding, exit 1.
      if (out === undefined) expect(r.code, `${what}: ${r.stderr}`).toBe(rightKey ? 0 : 1);
      expect(leaks(r.stdout, r.stderr, out === undefined ? '' : readFileSync(out, 'utf8')), what).toEqual([]);
    }
  }, 240_000);

  it('in any error message: unreadable keys and files, an unreachable target, nothing to replay, usage errors', async () => {
    const unreachable = await unreachableUrl();
    const cases: string[][] = [
      ['replay', recorded, '--target', vault.url, '--key', `hex:${KEY}`],
      ['replay', recorded, '--target', vault.url, '--key', `base64:${KEY}!!`],
      ['replay', join(dir, 'missing.har'), '--target', vault.url, '--key', KEY],
      ['replay', dir, '--target', vault.url, '--key', KEY],
      ['replay', recorded, '--target', unreachable, '--key', KEY],
      ['replay', 'test/fixtures/sdk/legacy-2025.har', '--target', vault.url, '--key', KEY],
      ['replay', recorded, '--key', KEY],
      ['replay', recorded, '--target', vault.url, '--key', KEY.slice(0, 20), KEY.slice(20)],
      ['replay', recorded, '--target', 'not a url', '--key', KEY],
      ['replay', recorded, '--target', vault.url, '--key', KEY, '--ignore', 'result[0'],
      ['replay', recorded, '--target', vault.url, '--key', KEY, '--format', 'sarif'],
      ['replay', recorded, '--target', vault.url, '--key', KEY, '--output', dir],
    ];
    const runs = [await runCli(...cases[0]), ...(await runCliBatch(cases.slice(1)))];
    for (const [i, r] of runs.entries()) {
      const args = cases[i];
      expect(r.code, args.join(' ')).toBe(2);
      expect(leaks(r.stdout, r.stderr), args.join(' ')).toEqual([]);
    }
  }, 240_000);

  it('is a search that can fail: a recorded answer holding the key shows in the diff, in every format', async () => {
    const withKey = join(dir, 'recorded-key.har');
    writeFileSync(withKey, readFileSync(recorded, 'utf8').replace('The vault is open.', `The vault key is ${KEY}.`));
    const formats = ['text', 'json', 'junit'];
    const runs = await runCliBatch(formats.map((format) => ['replay', withKey, '--target', vault.url, '--format', format, '--key', KEY]));
    for (const [i, r] of runs.entries()) {
      expect(r.code).toBe(1);
      expect(leaks(r.stdout), formats[i]).toContain(KEY);
    }
  }, 60_000);
});

describe("the page's keyring (worker/services/keyring.ts) and sanitised exports", () => {
  it('redacts a key from sanitised exports and copies in every spelling traffic may carry, and keeps it only when asked', () => {
    const a = randomBytes(32);
    const b = randomBytes(32);
    const ring = new Keyring();
    for (const [i, typed] of [`hex:${a.toString('hex')}`, `base64:${b.toString('base64')}`, `utf8:${KEY}`].entries()) {
      expect(ring.set(`http://127.0.0.1:${3000 + i}/mcp`, typed)).toEqual({ ok: true });
    }
    // What a careless server might echo: each key without our prefix, in its usual encodings.
    const echoed = [a.toString('hex'), a.toString('hex').toUpperCase(), a.toString('base64'), a.toString('base64url'), b.toString('base64'), b.toString('base64url'), b.toString('hex'), KEY];
    const c = capture();
    c.call('tools/call', { name: 'leak', arguments: { keys: echoed } }).header('X-Debug', echoed.join(' ')).complete({ content: [{ type: 'text', text: echoed.join('\n') }] });
    const records = c.build();
    // And an API key as a query field and an answer's body field (not a configured key: a credential).
    const apiKey = random(32);
    records[0].request.url += `?k=${encodeURIComponent(echoed[2])}&api_key=${apiKey}`;
    records[0].response!.body = records[0].response!.body!.replace('"content"', `"apiKey":"${apiKey}","content"`);
    echoed.push(apiKey);
    const secrets = ring.secretsForRedaction();
    const outputs = { har: exportHar(records, { secrets }), jsonl: exportJsonl(records, { sanitize: true, secrets }), curl: toCurl(records[0], { secrets }), fetch: toFetch(records[0], { secrets }) };
    for (const [what, text] of Object.entries(outputs)) for (const e of echoed) expect(text, `${what}: ${e}`).not.toContain(e);
    const kept = exportHar(records, { sanitize: false, secrets });
    for (const e of echoed) expect(kept).toContain(e);
  });

  it('never gives a key back: not in its list, not in an error', () => {
    const ring = new Keyring();
    const answers = [`hex:${KEY}`, `hex:${HEX}a`, `base64:${KEY}!`, `b64:${B64}~`].map((t) => ring.set('http://127.0.0.1:3000/mcp', t));
    expect(answers.every((r) => !r.ok)).toBe(true);
    expect(ring.set('http://127.0.0.1:3000/mcp', WRONG)).toEqual({ ok: true });
    expect(ring.set('http://127.0.0.1:3001/mcp', KEY, { remembered: true })).toEqual({ ok: true });
    expect(leaks(JSON.stringify([answers, ring.list()]))).toEqual([]);
    // Only the remembered key goes to the settings store.
    expect(ring.remembered()).toEqual([{ server: 'http://127.0.0.1:3001/mcp', text: KEY }]);
  });
});
