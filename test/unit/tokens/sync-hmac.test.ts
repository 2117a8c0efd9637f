// A host's injected synchronous HMAC check (the CLI's node:crypto) gives exactly the
// readings WebCrypto gives, and readTokenSync makes them without a promise where it can.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createRequestStateCodec } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { readToken, readTokenSync, type HmacSha256Check, type TokenKey } from '../../../worker/tokens/index.js';
import { AES_RIGHT, DEMO_KEY_TEXT, RIGHT, WRONG, b64url, flipChar, mintMacJson, mintSdkText } from './helpers.js';

/** As the CLI builds it (cli/main.ts). */
const nodeHmac: HmacSha256Check = (key, data, mac) =>
  mac.length === 32 && timingSafeEqual(createHmac('sha256', key).update(data).digest(), mac);

async function tokens(): Promise<string[]> {
  const sdk = await createRequestStateCodec({ key: DEMO_KEY_TEXT }).mint({ a: 1 });
  const macJson = await mintMacJson({ b: 2, exp: 2000000000 }, RIGHT);
  return [
    sdk, flipChar(sdk, 10), flipChar(sdk, sdk.length - 3), sdk.slice(0, -4), `${sdk.slice(0, sdk.lastIndexOf('.'))}.${b64url('short')}`,
    macJson, flipChar(macJson, 3), await mintSdkText('{"p":1,"exp":2000000000}', WRONG),
    `${b64url('{"alg":"HS256"}')}.${b64url('{}')}.${b64url('x')}`, 'opaque-handle', b64url('{"plain":true}'),
    ...jwsVariants(),
  ];
}

/** HS256 JWS signed with RIGHT (HMAC over the first two parts), and variants jose treats otherwise. */
function jwsVariants(): string[] {
  const sign = (header: string, payload: string, alg = 'sha256') => {
    const input = `${b64url(header)}.${payload}`;
    return `${input}.${createHmac(alg, RIGHT.bytes).update(input).digest('base64url')}`;
  };
  const good = sign('{"alg":"HS256","typ":"JWT"}', b64url('{"aud":"tools/call x","exp":2000000000}'));
  return [
    good, flipChar(good, good.length - 5), flipChar(good, good.indexOf('.') + 3), good.slice(0, good.lastIndexOf('.') + 1) + 'AAAA',
    sign('{"alg":"HS256","b64":false,"crit":["b64"]}', 'raw-payload'), sign('{"alg":"HS256","crit":["exp"]}', b64url('{}')),
    sign('{"alg":"HS256","b64":true}', b64url('{}')), sign('{"alg":"HS256"}', ''), sign('{"alg":"HS256"}', b64url('just text')),
    sign('{"alg":"HS384"}', b64url('{"a":1}'), 'sha384'), sign('{"alg":"HS256"}', b64url('{"a":1}') + '!'),
  ];
}

const KEY_LISTS: TokenKey[][] = [[], [RIGHT], [WRONG], [WRONG, RIGHT], [AES_RIGHT, WRONG], [null, {}, { bytes: new Uint8Array(0), label: '' }, RIGHT] as never[]];

describe('synchronous HMAC verification', () => {
  it('reads every token with every key list as WebCrypto does', async () => {
    for (const token of await tokens()) {
      for (const keys of KEY_LISTS) {
        const web = await readToken(token, keys);
        expect(await readToken(token, keys, nodeHmac), token).toEqual(web);
        const now = readTokenSync(token, keys, nodeHmac);
        // Other JWS need jose (async); everything else, plain HS256 JWS included, is read here and now.
        if (now === undefined) expect(web.format).toBe('jws');
        else expect(now, token).toEqual(web);
        if (token === jwsVariants()[0] && keys.length > 0) expect(now, 'a plain HS256 JWS is read synchronously').toEqual(web);
      }
    }
  });

  it('verifies a plain HS256 JWS without jose, naming the key, and refuses a wrong key with jose\'s message', () => {
    const good = jwsVariants()[0];
    expect(readTokenSync(good, [WRONG, RIGHT], nodeHmac)).toMatchObject({ format: 'jws', verified: true, keyIndex: 1 });
    expect(readTokenSync(good, [WRONG], nodeHmac)).toMatchObject({ verified: false, verifyError: 'HS256 signature does not match the configured key' });
    expect(readTokenSync(jwsVariants()[4], [RIGHT], nodeHmac)).toBeUndefined(); // b64: false goes to jose
  });

  it('makes no reading without the check when a key must verify an HMAC, and one without keys', async () => {
    const [sdk] = await tokens();
    expect(readTokenSync(sdk, [RIGHT])).toBeUndefined();
    expect(readTokenSync(sdk, [])).toEqual(await readToken(sdk, []));
  });

  it('reports a failing check as a failed verification, not a throw', async () => {
    const [sdk] = await tokens();
    const broken: HmacSha256Check = () => { throw new TypeError('boom'); };
    const r = readTokenSync(sdk, [RIGHT], broken)!;
    expect(r).toMatchObject({ verified: false, verifyError: 'verification failed unexpectedly' });
    expect(r.note).toContain('TypeError');
  });
});
