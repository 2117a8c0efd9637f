// The copied commands are safe to paste whatever the capture holds: the cURL command parses
// as POSIX shell and hands curl the body byte for byte (proved by running it against a
// stand-in curl), and the fetch snippet parses as JavaScript (never run) with every string
// intact.
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { printfCommand, shellQuote, toCurl, toFetch } from '../../../worker/export/index.js';
import { mcpCall } from './records.js';

const SHELLS = ['sh', 'bash'].filter((s) => spawnSync(s, ['-c', 'exit 0']).status === 0);

const HOSTILE = [
  `it's "quoted" 'twice'`,
  `'`, `''`, `'\\''`, `\\`, `\\'`, `"`,
  'line one\nline two\r\nthree\n',
  '$(echo pwned) `echo pwned` ${HOME} $HOME $((1+1))',
  '!! !$ !-1 ^a^b', '; rm -rf / # && || | > < & * ? [a] {a,b} ~ %s %n %b \\c',
  '\t\v\f\u001b[31mred\u001b[0m',
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a\'b","arguments":{"q":"$(id)"}}}',
  'héllo wörld ✓ 𝄞 \u2028\u2029 \u00a0',
  '-X DELETE --url file:///etc/passwd',
  String.fromCharCode(...Array.from({ length: 255 }, (_, i) => i + 1)),
];

/** Runs a script and returns its stdout bytes. */
function run(shell: string, script: string, input?: string): Buffer {
  const got = spawnSync(shell, ['-c', script], { input, maxBuffer: 64 * 1024 * 1024 });
  if (got.status !== 0) throw new Error(`${shell} exited ${got.status}: ${got.stderr}`);
  return got.stdout;
}

/** `sh -n`: parse only, execute nothing. */
function syntaxOk(shell: string, script: string): boolean {
  return spawnSync(shell, ['-n'], { input: script }).status === 0;
}

// A stand-in curl: prints each argument followed by NUL, then whatever arrived on stdin.
const FAKE_CURL = `curl() { for a; do printf '%s\\0' "$a"; done; printf 'STDIN\\0'; [ -t 0 ] || cat; }\n`;

/** The arguments the pasted command would give curl, and its stdin. */
function curlArgs(shell: string, command: string): { args: string[]; stdin: string } {
  const out = run(shell, FAKE_CURL + command, '').toString('utf8').split('\0');
  const at = out.indexOf('STDIN');
  return { args: out.slice(0, at), stdin: out.slice(at + 1).join('\0') };
}

/** The string a JSON literal after `prefix` on one line of the snippet stands for (parsed, not run). */
function literalAfter(snippet: string, prefix: string): unknown {
  const line = snippet.split('\n').find((l) => l.startsWith(prefix))!;
  return JSON.parse(line.slice(prefix.length).replace(/,$/, ''));
}

/** No lone surrogates: the text has an exact UTF-8 form to compare bytes against. */
const wellFormed = (s: string) => Buffer.from(s, 'utf8').toString('utf8') === s;
const text = fc.string({ unit: 'binary', maxLength: 200 }).filter((s) => wellFormed(s) && !s.includes('\0'));

describe.each(SHELLS)('copy as cURL in %s', (shell) => {
  it('parses every hostile body as shell syntax', () => {
    for (const body of HOSTILE) expect(syntaxOk(shell, toCurl(mcpCall({ body }))), body).toBe(true);
  });

  it('gives curl every hostile body byte for byte, and runs nothing in it', () => {
    for (const body of HOSTILE) {
      const { args } = curlArgs(shell, toCurl(mcpCall({ body }), { sanitize: false }));
      expect(args[args.indexOf('--data-raw') + 1], JSON.stringify(body)).toBe(body);
      expect(args[0]).toBe('http://127.0.0.1:3000/mcp?key=PLANTED-configured-0004');
    }
  });

  it('keeps hostile header values and URLs intact as single arguments', () => {
    const url = `http://h/mcp?q='$(id)'&r="x"`;
    const value = `a'b "c" $(id) \`id\``;
    const { args } = curlArgs(shell, toCurl(mcpCall({ url, headers: [{ name: 'X-Test', value }] }), { sanitize: false }));
    expect(args[0]).toBe(url);
    expect(args[args.indexOf('-H') + 1]).toBe(`X-Test: ${value}`);
  });

  it('pipes a body with NUL bytes to curl exactly', () => {
    const body = `a\0b\\0000\0'\\n%s\n\0`;
    const command = toCurl(mcpCall({ body }), { sanitize: false });
    expect(syntaxOk(shell, command)).toBe(true);
    const { args, stdin } = curlArgs(shell, command);
    expect(args.slice(-3)).toEqual(['--data-binary', '@-', '-N']);
    expect(stdin).toBe(body);
  });

  it('reproduces any text through printf %s and a quoted word', () => {
    fc.assert(fc.property(text, (s) => {
      expect(run(shell, `printf %s ${shellQuote(s)}`).equals(Buffer.from(s, 'utf8'))).toBe(true);
    }), { numRuns: 150 });
  });

  it('reproduces any text, NUL included, through printfCommand', () => {
    const withNul = fc.string({ unit: 'binary', maxLength: 100 }).filter((s) => wellFormed(s));
    fc.assert(fc.property(withNul, (s) => {
      expect(run(shell, printfCommand(s)).equals(Buffer.from(s, 'utf8'))).toBe(true);
    }), { numRuns: 100 });
  });

  it('hands curl any body byte for byte', () => {
    fc.assert(fc.property(text, (body) => {
      const { args } = curlArgs(shell, toCurl(mcpCall({ body, headers: [] }), { sanitize: false }));
      expect(args[args.indexOf('--data-raw') + 1]).toBe(body);
    }), { numRuns: 100 });
  });
});

describe('copy as fetch', () => {
  it('parses as JavaScript for every hostile body, URL and header, and keeps each string exact', () => {
    for (const s of [...HOSTILE, '</script><script>alert(1)</script>', '*/ alert(1) /*', '${alert(1)}', '\ud800 lone']) {
      const snippet = toFetch(mcpCall({ body: s, url: `http://h/${s}`, headers: [{ name: 'X-T', value: s }] }), { sanitize: false });
      expect(() => new Function(snippet), JSON.stringify(s)).not.toThrow();
      expect(literalAfter(snippet, '  body: ')).toBe(s);
      expect(literalAfter(snippet, '    "X-T": ')).toBe(s);
    }
  });

  it('parses as JavaScript for any body', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), fc.string(), (body, value) => {
      const snippet = toFetch(mcpCall({ body, headers: [{ name: value || 'x', value }] }), { sanitize: false });
      expect(() => new Function(snippet)).not.toThrow();
      expect(literalAfter(snippet, '  body: ')).toBe(body);
    }), { numRuns: 500 });
  });
});
