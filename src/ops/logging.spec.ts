import { redactUrl } from './logging';

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
    ['/x?limit=1#frag', '/x?limit=1#frag'],
    ['/x', '/x'],
  ])('%s is logged as %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });
});
