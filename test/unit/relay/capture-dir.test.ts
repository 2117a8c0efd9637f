// The relay's capture file and target list under a shared temp folder, where another local
// user may have been first. Real file-system setups: a folder of another owner, a folder
// open to everyone, a symlinked folder, a symlink planted at the capture file's name and
// at a temp name, and a second uid (nobody) trying to read what the relay wrote.
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDemoHandler } from '../../../server/demo/handler.js';
import { createRelay, defaultJsonlPath } from '../../../server/relay/relay.js';
import { eventually, putTargets, send, startRelay, TOKEN } from './relay-harness.js';

const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;
const mode = (p: string) => statSync(p).mode & 0o777;

describe("the relay's capture folder and files", () => {
  let base: string;
  const saved = { tmp: process.env.TMPDIR, jsonl: process.env.MRTR_RELAY_JSONL };
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'mrtr-shared-tmp-'));
    chmodSync(base, 0o1777); // a shared temp folder, like /tmp
    process.env.TMPDIR = base;
    delete process.env.MRTR_RELAY_JSONL;
  });
  afterEach(() => {
    if (saved.tmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved.tmp;
    if (saved.jsonl !== undefined) process.env.MRTR_RELAY_JSONL = saved.jsonl;
    rmSync(base, { recursive: true, force: true });
  });
  const relayAt = (jsonlPath?: string) => createRelay({ createDemo: () => createDemoHandler(), token: TOKEN, warn: () => undefined, ...(jsonlPath ? { jsonlPath } : {}) });

  it('by default is a per-user 0700 folder in the temp folder, with 0600 files', async () => {
    const path = defaultJsonlPath();
    expect(path.startsWith(join(base, `mrtr-inspector-${process.getuid!()}`))).toBe(true);
    const h = await startRelay({ dir: join(base, 'unused'), jsonlPath: undefined as never });
    try {
      expect(h.relay.jsonlPath).toBe(path);
      expect(mode(join(base, `mrtr-inspector-${process.getuid!()}`))).toBe(0o700);
      expect((await putTargets(h, [{ id: 'x', url: 'http://127.0.0.1:9/mcp' }])).status).toBe(200);
      await send(h.port, { method: 'POST', path: `/relay/${TOKEN}/demo`, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
      await eventually(() => existsSync(path) && readFileSync(path, 'utf8').includes('"complete"'));
      expect(mode(path)).toBe(0o600);
      expect(mode(h.relay.targetsPath)).toBe(0o600);
      // The folder holds only the two files: no temp file left behind.
      expect(readdirSync(join(base, `mrtr-inspector-${process.getuid!()}`)).sort()).toEqual(['relay-capture-5173.jsonl', 'relay-capture-5173.targets.json']);
    } finally {
      await h.close();
    }
  });

  it.runIf(isRoot)("refuses a folder another user created first, and loads nothing planted in it", () => {
    const dir = join(base, `mrtr-inspector-${process.getuid!()}`);
    mkdirSync(dir, { mode: 0o700 });
    const victim = join(base, 'victim.txt');
    writeFileSync(victim, 'theirs\n');
    symlinkSync(victim, join(dir, 'relay-capture-5173.jsonl'));
    writeFileSync(join(dir, 'relay-capture-5173.targets.json'), JSON.stringify([{ id: 'planted', url: 'http://evil.example/' }]));
    chownSync(dir, NOBODY, NOBODY);
    expect(() => relayAt()).toThrow(/belongs to another user/);
    // Advice the developer can follow: in a sticky temp folder they cannot remove another
    // user's folder, so they are told how to use a folder of their own instead.
    expect(() => relayAt()).toThrow(/You cannot remove it .*MRTR_RELAY_DIR="\$\{XDG_RUNTIME_DIR:-\$HOME\/\.cache\}\/mrtr-inspector" npm start/);
    expect(() => relayAt()).not.toThrow(/Remove it \(/);
    process.env.MRTR_RELAY_DIR = join(base, 'mine');
    try {
      const relay = relayAt();
      expect(relay.jsonlPath).toBe(join(base, 'mine', 'relay-capture-5173.jsonl'));
      void relay.close();
    } finally {
      delete process.env.MRTR_RELAY_DIR;
    }
    expect(readFileSync(victim, 'utf8')).toBe('theirs\n');
  });

  it('refuses a default folder others can enter, and a symlinked one', () => {
    const dir = join(base, `mrtr-inspector-${process.getuid!()}`);
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    expect(() => relayAt()).toThrow(/other users can enter it/);
    rmSync(dir, { recursive: true });
    const elsewhere = mkdtempSync(join(base, 'theirs-'));
    symlinkSync(elsewhere, dir);
    expect(() => relayAt()).toThrow(/symbolic link/);
  });

  it('never writes through a symlink planted at the capture file or the target list, nor at a temp name', async () => {
    const dir = mkdtempSync(join(base, 'mine-'));
    const victim = join(base, 'victim.txt');
    writeFileSync(victim, 'theirs\n');
    const jsonl = join(dir, 'capture.jsonl');
    symlinkSync(victim, jsonl);
    symlinkSync(victim, join(dir, 'capture.targets.json'));
    // The old predictable temp names, for both files.
    symlinkSync(victim, `${jsonl}.${process.pid}.tmp`);
    symlinkSync(victim, join(dir, `capture.targets.json.${process.pid}.tmp`));
    const warnings: string[] = [];
    const h = await startRelay({ dir, warn: (m) => warnings.push(m) });
    try {
      // A target list PUT replaces the symlink by a file of ours; the victim is untouched.
      expect((await putTargets(h, [{ id: 'x', url: 'http://127.0.0.1:9/mcp' }])).status).toBe(200);
      expect(lstatSync(join(dir, 'capture.targets.json')).isSymbolicLink()).toBe(false);
      await send(h.port, { method: 'POST', path: `/relay/${TOKEN}/demo`, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
      await eventually(() => warnings.some((w) => w.includes('Cannot write relay captures')));
      expect(readFileSync(victim, 'utf8')).toBe('theirs\n');
    } finally {
      await h.close();
    }
  });

  it.runIf(isRoot)('another uid cannot read the capture file the relay wrote', async () => {
    const h = await startRelay({ jsonlPath: undefined as never, dir: join(base, 'unused') });
    try {
      await send(h.port, { method: 'POST', path: `/relay/${TOKEN}/demo`, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer secret-bearer' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
      await eventually(() => existsSync(h.relay.jsonlPath) && readFileSync(h.relay.jsonlPath, 'utf8').includes('"complete"'));
      expect(readFileSync(h.relay.jsonlPath, 'utf8')).toContain('secret-bearer');
      const asNobody = spawnSync('cat', [h.relay.jsonlPath], { uid: NOBODY, gid: NOBODY, encoding: 'utf8' });
      expect(asNobody.status).not.toBe(0);
      expect(asNobody.stderr).toMatch(/Permission denied/);
      expect(asNobody.stdout).not.toContain('secret-bearer');
    } finally {
      await h.close();
    }
  });
});
