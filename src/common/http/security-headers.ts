import type { NextFunction, Request, Response } from 'express';
import helmet, { HelmetOptions } from 'helmet';

/**
 * Helmet's security headers, worked out once: with this configuration they
 * are the same for every response, so they are computed by running helmet
 * on one response at start, and then set on each request in one loop.
 */
export function securityHeaders(options: HelmetOptions) {
  const headers: [string, string][] = [];
  const probe = {
    setHeader: (name: string, value: string) => headers.push([name, value]),
    removeHeader: () => undefined,
  };
  helmet(options)({} as Request, probe as unknown as Response, () => undefined);
  return (_req: Request, res: Response, next: NextFunction) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}
