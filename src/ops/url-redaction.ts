// How a URL is written where others read it: the log lines, and the spans
// when tracing is on (src/ops/tracing-sdk.ts). A module of its own, with no
// import, so that the tracing setup can use it before pino is loaded.

/** A query parameter's name as a query parser would read it: percent- and plus-decoded. */
function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/**
 * The query parameters whose values open an account or a session: a bearer
 * token, a link URL's ticket, and a link callback's authorization code and
 * state. A parameter is one of them when its decoded name, or a bracketed
 * part of it (`ticket[]`, `a[code]`), is one of these names, whatever the
 * case; `access_token` counts anywhere in the name.
 */
const SECRET_PARAMETERS = new Set(['ticket', 'code', 'state']);

function isSecretParameter(name: string): boolean {
  const decoded = decodedName(name).toLowerCase();
  return (
    decoded.includes('access_token') ||
    decoded.split(/[[\]]/).some((part) => SECRET_PARAMETERS.has(part))
  );
}

/**
 * A URL as it may be logged or traced: the value of every secret query parameter
 * (see isSecretParameter) replaced, with `&` and `;` both taken as
 * separators, so that no spelling a parser accepts logs a secret.
 */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const [query, fragment = ''] = url.slice(at + 1).split(/(?=#)/);
  const redacted = query.replace(/[^&;]+/g, (pair) => {
    const equals = pair.indexOf('=');
    const name = equals < 0 ? pair : pair.slice(0, equals);
    return isSecretParameter(name) ? `${name}=[REDACTED]` : pair;
  });
  return `${url.slice(0, at + 1)}${redacted}${fragment}`;
}
