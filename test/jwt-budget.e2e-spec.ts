import { canonicalToken } from '../src/common/http/credentials';
import { bearer, example } from './support/example';
import { AUDIENCE, useLocalIssuer } from './support/local-issuer';
import { useTestApp } from './support/test-app';

const ALPHABET =
  'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * The spellings of a JWT whose signature decodes to the same bytes: the last
 * base64url character of an RS256 signature (256 bytes) carries four unused
 * bits.
 */
function spellings(token: string): string[] {
  const head = token.slice(0, -1);
  const last = ALPHABET.indexOf(token.at(-1)!);
  return Array.from(
    { length: 16 },
    (_, low) => head + ALPHABET[(last & 0b110000) | low],
  );
}

// One budget per token, whatever spelling of it is sent.
describe('a JWT’s request budget', () => {
  const idp = useLocalIssuer();
  const t = useTestApp(() => {
    const file = example();
    file.tenant.tokenIssuers = [
      { issuer: idp.issuer('example'), audiences: [AUDIENCE] },
    ];
    return { tenants: [file], config: { rateLimit: 3 } };
  });

  it('is one for all the spellings of its signature', async () => {
    const token = await idp.sign({ sub: 'ada' }, { realm: 'example' });
    const variants = spellings(token);
    expect(new Set(variants.map(canonicalToken)).size).toBe(1);
    const statuses: number[] = [];
    for (const variant of variants.slice(0, 5))
      statuses.push(
        (await t.http().get('/example/api/identity/v1').set(bearer(variant)))
          .status,
      );
    expect(statuses).toStrictEqual([200, 200, 200, 429, 429]);
  });
});
