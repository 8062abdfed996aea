import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { chain } from './chain';

const req = {} as Request;
const res = {} as Response;

/** Runs the chain; what reached `done` once it is called. */
function runChain(...handlers: RequestHandler[]): Promise<unknown[]> {
  return new Promise((resolve) => {
    chain(...handlers)(req, res, ((...args: unknown[]) =>
      resolve(args)) as NextFunction);
  });
}

describe('chain', () => {
  it('runs every handler in turn, then goes on', async () => {
    const ran: string[] = [];
    const step =
      (name: string): RequestHandler =>
      (_req, _res, next) => {
        ran.push(name);
        next();
      };
    await expect(runChain(step('a'), step('b'), step('c'))).resolves.toEqual(
      [],
    );
    expect(ran).toEqual(['a', 'b', 'c']);
  });

  it('goes on after a handler that goes on later', async () => {
    const later: RequestHandler = (_req, _res, next) => {
      setImmediate(() => next());
    };
    const ran: string[] = [];
    await runChain(later, (_req, _res, next) => {
      ran.push('after');
      next();
    });
    expect(ran).toEqual(['after']);
  });

  it.each<[string, RequestHandler]>([
    ['passed', (_req, _res, next) => next(new Error('boom'))],
    [
      'thrown',
      () => {
        throw new Error('boom');
      },
    ],
    ['rejected', () => Promise.reject(new Error('boom'))],
  ])(
    'sends an error %s to the error handlers, skipping the rest',
    async (_how, failing) => {
      const skipped = jest.fn();
      const [error] = await runChain(failing, skipped);
      expect((error as Error).message).toBe('boom');
      expect(skipped).not.toHaveBeenCalled();
    },
  );

  it("reads 'route' as going on and 'router' as leaving, as Express does", async () => {
    const after = jest.fn((_req, _res, next: NextFunction) => next());
    await expect(
      runChain((_req, _res, next) => next('route'), after),
    ).resolves.toEqual([]);
    expect(after).toHaveBeenCalled();
    await expect(
      runChain((_req, _res, next) => next('router'), after),
    ).resolves.toEqual(['router']);
  });

  it('answers a rejection without a reason with an error', async () => {
    const [error] = await runChain(() => Promise.reject(undefined));
    expect((error as Error).message).toBe('Rejected promise');
  });
});
