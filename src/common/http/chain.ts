import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Request handlers run in turn as one Express middleware, as Express would
 * run them registered one by one: each goes on with `next()`, and an error
 * (passed to `next`, thrown, or the rejection of a promise it returns)
 * skips the rest and goes to the error handlers past the chain. Express
 * matches each registered middleware against the path and makes a few
 * objects for it on every request; a chain is matched once.
 */
export function chain(...handlers: RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, done: NextFunction) => {
    let at = 0;
    const next = (error?: unknown) => {
      // As Express reads it: 'route' goes on, 'router' leaves the router.
      if (error && error !== 'route') return done(error);
      if (at === handlers.length) return done();
      run(handlers[at++], req, res, next);
    };
    next();
  };
}

/** One handler, its errors to `next` as Express's router sends them. */
function run(
  handler: RequestHandler,
  req: Request,
  res: Response,
  next: NextFunction,
) {
  try {
    const returned: unknown = handler(req, res, next);
    if (returned instanceof Promise)
      returned.then(undefined, (error: unknown) =>
        next(error || new Error('Rejected promise')),
      );
  } catch (error) {
    next(error);
  }
}
