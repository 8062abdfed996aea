import { ArgumentsHost, Logger } from '@nestjs/common';
import { IdentityNotFound } from '../errors';
import { ProblemFilter } from './problem.filter';

function render(error: unknown) {
  const headers: Record<string, string> = {};
  const res = {
    statusCode: 0,
    body: '',
    headersSent: false,
    setHeader: (name: string, value: string) => (headers[name] = value),
    status(code: number) {
      this.statusCode = code;
      return this;
    },
    end(body?: string) {
      this.body = body ?? '';
    },
  };
  const req = {
    path: '/t/api/identity/v1',
    method: 'GET',
    get: () => 'req-42',
  };
  const host = {
    switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }),
  } as unknown as ArgumentsHost;
  new ProblemFilter().catch(error, host);
  return { status: res.statusCode, headers, body: JSON.parse(res.body) };
}

describe('ProblemFilter', () => {
  it('renders a domain error as problem+json', () => {
    expect(render(new IdentityNotFound('x'))).toStrictEqual({
      status: 404,
      headers: { 'Content-Type': 'application/problem+json' },
      body: {
        type: 'urn:problem:identity:identity-not-found',
        title: 'Identity not found',
        status: 404,
        detail: 'No identity "x" is visible to the caller in this tenant.',
        instance: '/t/api/identity/v1',
      },
    });
  });

  it('answers an unexpected error with its request id only, and logs the rest', () => {
    const log = jest
      .spyOn(Logger.prototype, 'error')
      .mockImplementation(() => undefined);
    const error = new Error('relation "identity" does not exist; token=abc');
    const { status, body } = render(error);
    expect(status).toBe(500);
    expect(body).toStrictEqual({
      type: 'urn:problem:identity:internal',
      title: 'Internal Server Error',
      status: 500,
      detail: 'An unexpected error occurred; quote request id req-42.',
      instance: '/t/api/identity/v1',
    });
    expect(log).toHaveBeenCalledWith(
      'Unexpected error in GET /t/api/identity/v1 (request req-42)',
      error.stack,
    );
    log.mockRestore();
  });

  it('maps a malformed JSON body to 400', () => {
    expect(
      render(
        Object.assign(new SyntaxError('Unexpected token'), {
          type: 'entity.parse.failed',
        }),
      ).body,
    ).toMatchObject({
      status: 400,
      detail: 'The request body is not valid JSON.',
    });
  });
});
