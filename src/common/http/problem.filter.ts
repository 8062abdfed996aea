import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  Logger,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { STATUS_CODES } from 'node:http';
import {
  isDatabaseUnavailable,
  isQueryTimeout,
  isUniqueViolation,
  isUnstorableText,
  USER_NAME_INDEX,
} from '../../database/database-errors';
import {
  AuthenticationRequired,
  Conflict,
  DatabaseUnavailable,
  QueryTimedOut,
  DomainError,
  InvalidRequest,
  RouteNotFound,
} from '../errors';
import {
  domainProblem,
  FRAMEWORK_ERRORS,
  frameworkProblem,
  internalProblem,
  Problem,
  problem,
} from './problem';
import { realmOf, requestState } from './request-context';
import { SCIM_PATH } from './route-table';
import { SCIM_CONTENT_TYPE, toScimError } from './scim-error';

/**
 * Renders every error as application/problem+json (RFC 9457), or under the
 * SCIM base as a SCIM error (RFC 7644 §3.12) in application/scim+json.
 * Nothing from an unexpected error reaches the client but its request id.
 */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  constructor(
    /** Told of every request answered 503 because the database could not be reached. */
    private readonly onDatabaseUnavailable: (req: Request) => void = () =>
      undefined,
  ) {}

  catch(thrown: unknown, host: ArgumentsHost): void {
    const error = isQueryTimeout(thrown)
      ? new QueryTimedOut()
      : isDatabaseUnavailable(thrown)
        ? new DatabaseUnavailable()
        : isUnstorableText(thrown)
          ? new InvalidRequest(
              'The request holds text that cannot be stored (U+0000 or invalid UTF-8).',
            )
          : isUniqueViolation(thrown, USER_NAME_INDEX)
            ? new Conflict(
                'The userName is taken by another identity of the tenant (compared case-insensitively).',
              )
            : thrown;
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const { id } = requestState(req);
    if (error instanceof DatabaseUnavailable) this.onDatabaseUnavailable(req);
    const instance = req.path;
    const body = this.toProblem(error, req, instance, id);
    if (error instanceof DomainError)
      for (const [name, value] of Object.entries(error.headers))
        res.setHeader(name, value);
    if (error instanceof AuthenticationRequired)
      res.setHeader('WWW-Authenticate', error.challenge(realmOf(req)));
    if (res.headersSent) return void res.end();
    res.status(body.status);
    if (body.status === 308) return void res.end();
    if (SCIM_PATH.test(req.path)) {
      const scimType =
        error instanceof DomainError ? error.scimType : undefined;
      res.setHeader('Content-Type', `${SCIM_CONTENT_TYPE}; charset=utf-8`);
      return void res.end(JSON.stringify(toScimError(body, scimType)));
    }
    res.setHeader('Content-Type', 'application/problem+json');
    res.end(JSON.stringify(body));
  }

  private toProblem(
    error: unknown,
    req: Request,
    instance: string,
    requestId: string,
  ): Problem {
    if (error instanceof DomainError) return domainProblem(error, instance);
    // Nest wraps errors of body parsing and routing; their cause says what happened.
    const cause = error instanceof HttpException ? error.cause : error;
    const type = (cause as { type?: string })?.type ?? '';
    const key = FRAMEWORK_ERRORS[type]
      ? type
      : cause instanceof URIError
        ? 'uri.malformed'
        : undefined;
    if (key) return frameworkProblem(key, instance, detailOf(cause));
    if (error instanceof HttpException && error.getStatus() === 404)
      return domainProblem(new RouteNotFound(instance), instance);
    if (error instanceof HttpException && error.getStatus() < 500)
      return problem(
        error.getStatus(),
        'http-error',
        STATUS_CODES[error.getStatus()] ?? 'Request failed.',
        instance,
      );
    this.logger.error(
      `Unexpected error in ${req.method} ${instance} (request ${requestId})`,
      error instanceof Error ? error.stack : String(error),
    );
    return internalProblem(requestId, instance);
  }
}

/**
 * What a framework error says beyond its entry: a body over the limit names
 * the limit of its path (the API's or SCIM's).
 */
function detailOf(cause: unknown): string | undefined {
  const { type, limit, body } = (cause ?? {}) as {
    type?: string;
    limit?: unknown;
    body?: unknown;
  };
  if (type === 'entity.too.large' && typeof limit === 'number')
    return `The request body is larger than ${limit / 1024} KiB.`;
  // JSON that is valid but a string, number, boolean or null.
  if (type === 'entity.parse.failed' && isJsonScalar(body))
    return 'The request body must be a JSON object.';
  return undefined;
}

function isJsonScalar(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value !== 'object' || value === null;
  } catch {
    return false;
  }
}
