// The engine's token readings (worker/engine/token-readings.ts): a reading awaited with one
// set of keys is never filed after the keys changed, so a JWS read while the user entered
// the right key shows as verified, not as the forgery the old keys made of it.
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { TokenReadings } from '../../../worker/engine/token-readings.js';
import type { TokenKey } from '../../../worker/tokens/index.js';
import { RIGHT, WRONG } from '../tokens/helpers.js';
import { conv, round } from './engine-helpers.js';

describe('token readings', () => {
  it('drops a reading made with the old keys when the keys change while it is awaited', async () => {
    const token = await new SignJWT({ sub: 'alice' }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(RIGHT.bytes);
    const url = 'http://127.0.0.1:3000/mcp';
    const readings = new TokenReadings(() => url, (): readonly TokenKey[] => [WRONG], undefined);
    // A JWS cannot be read at once (WebCrypto): readAll awaits it.
    const first = readings.readAll([token]);
    readings.setKeys(() => [RIGHT]);
    await first;
    await readings.readAll([token]);
    expect(readings.reading(token)).toMatchObject({ format: 'jws', verified: true });
  });

  it('lists the tokens of the conversations issued ones first, then sent ones, each once, in first-seen order', async () => {
    const readings = new TokenReadings(() => '', () => [], undefined);
    const convs = [
      conv('c0', [round(0, 1, { sent: 'sent-first' }), round(1, 2, { issued: 'issued-b', sent: 'issued-a' })]),
      conv('c1', [round(2, 3, { issued: 'issued-a' }), round(3, 4, { sent: 'issued-b' })]),
    ];
    await readings.readAll(['sent-first', 'issued-a', 'issued-b']);
    expect([...readings.inOrder(convs).keys()]).toEqual(['issued-b', 'issued-a', 'sent-first']);
    expect(readings.inOrder(convs).get('issued-a')).toBe(readings.reading('issued-a'));
  });
});
