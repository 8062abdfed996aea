import { redactUrl } from './url-redaction';

describe('redactUrl', () => {
  it.each([
    [
      '/t/api/identity/v1?access_token=s3cret',
      '/t/api/identity/v1?access_token=[REDACTED]',
    ],
    ['/x?a=1&access_token=s3cret&b=2', '/x?a=1&access_token=[REDACTED]&b=2'],
    ['/x?access%5Ftoken=s3cret', '/x?access%5Ftoken=[REDACTED]'],
    ['/x?%61ccess_token=s3cret', '/x?%61ccess_token=[REDACTED]'],
    ['/x?ACCESS_TOKEN=s3cret', '/x?ACCESS_TOKEN=[REDACTED]'],
    ['/x?access_token[]=s3cret', '/x?access_token[]=[REDACTED]'],
    ['/x?a=1;access_token=s3cret', '/x?a=1;access_token=[REDACTED]'],
    [
      '/x?__proto__[access_token]=s3cret',
      '/x?__proto__[access_token]=[REDACTED]',
    ],
    ['/x?access_token', '/x?access_token=[REDACTED]'],
    ['/x?access+token=kept&%zz=kept', '/x?access+token=kept&%zz=kept'],
    [
      '/t/link/v1/op/start?ticket=s3cret&redirect_uri=https%3A%2F%2Fapp',
      '/t/link/v1/op/start?ticket=[REDACTED]&redirect_uri=https%3A%2F%2Fapp',
    ],
    [
      '/t/link/v1/callback?code=s3cret&state=s3cret&iss=https%3A%2F%2Fop',
      '/t/link/v1/callback?code=[REDACTED]&state=[REDACTED]&iss=https%3A%2F%2Fop',
    ],
    ['/x?%74icket=s3cret', '/x?%74icket=[REDACTED]'],
    ['/x?Code=s3cret;STATE', '/x?Code=[REDACTED];STATE=[REDACTED]'],
    ['/x?ticket[]=s3cret', '/x?ticket[]=[REDACTED]'],
    ['/x?a[code]=s3cret', '/x?a[code]=[REDACTED]'],
    ['/x?postcode=kept&statement=kept', '/x?postcode=kept&statement=kept'],
    ['/x?limit=1#frag', '/x?limit=1#frag'],
    ['/x', '/x'],
  ])('%s is logged as %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });
});
