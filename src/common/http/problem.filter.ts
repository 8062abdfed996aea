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
  isUnstorableText,
} from '../../database/database-errors';
import {
  DatabaseUnavailable,
  DomainError,
  InvalidRequest,
  RouteNotFound,
} from '../errors';
import { FieldError } from '../validation/field-errors';
import { requestState } from './request-context';

interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  errors?: FieldError[];
}

// Errors raised below the service's own code (body parsing, Nest itself).
const FRAMEWORK_ERRORS: Record<
  string,
  { status: number; slug: string; detail: string }
> = {
  'entity.parse.failed': {
    status: 400,
    slug: 'malformed-json',
    detail: 'The request body is not valid JSON.',
  },
  'entity.too.large': {
    status: 413,
    slug: 'payload-too-large',
    detail: 'The request body is larger than 64 KiB.',
  },
  'encoding.unsupported': {
    status: 415,
    slug: 'unsupported-media-type',
    detail: 'The request body has an unsupported content encoding.',
  },
  'uri.malformed': {
    status: 400,
    slug: 'invalid-request',
    detail: 'The path is not valid percent-encoding.',
  },
  'charset.unsupported': {
    status: 415,
    slug: 'unsupported-media-type',
    detail: 'The request body must be UTF-8.',
  },
};

/**
 * Renders every error as application/problem+json (RFC 9457). Nothing from
 * an unexpected error reaches the client but its request id.
 */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(thrown: unknown, host: ArgumentsHost): void {
    const error = isDatabaseUnavailable(thrown)
      ? new DatabaseUnavailable()
      : isUnstorableText(thrown)
        ? new InvalidRequest(
            'The request holds text that cannot be stored (U+0000 or invalid UTF-8).',
          )
        : thrown;
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const { id } = requestState(req);
    const instance = req.path;
    const problem = this.toProblem(error, req, instance, id);
    if (error instanceof DomainError)
      for (const [name, value] of Object.entries(error.headers))
        res.setHeader(name, value);
    if (res.headersSent) return void res.end();
    res.status(problem.status);
    if (problem.status === 308) return void res.end();
    res.setHeader('Content-Type', 'application/problem+json');
    res.end(JSON.stringify(problem));
  }

  private toProblem(
    error: unknown,
    req: Request,
    instance: string,
    requestId: string,
  ): Problem {
    const make = (
      status: number,
      slug: string,
      detail: string,
      title = STATUS_CODES[status] ?? 'Error',
    ): Problem => ({
      type: `urn:problem:identity:${slug}`,
      title,
      status,
      detail,
      instance,
    });
    if (error instanceof DomainError) {
      const problem = make(
        error.status,
        error.slug,
        error.message,
        error.title,
      );
      if (error.errors) problem.errors = error.errors;
      return problem;
    }
    // Nest wraps errors of body parsing and routing; their cause says what happened.
    const cause = error instanceof HttpException ? error.cause : error;
    const known = FRAMEWORK_ERRORS[(cause as { type?: string })?.type ?? ''];
    if (known) return make(known.status, known.slug, known.detail);
    if (cause instanceof URIError) {
      const uri = FRAMEWORK_ERRORS['uri.malformed'];
      return make(uri.status, uri.slug, uri.detail);
    }
    if (error instanceof HttpException && error.getStatus() === 404) {
      const notFound = new RouteNotFound(instance);
      return make(404, notFound.slug, notFound.message, notFound.title);
    }
    if (error instanceof HttpException && error.getStatus() < 500)
      return make(
        error.getStatus(),
        'http-error',
        STATUS_CODES[error.getStatus()] ?? 'Request failed.',
      );
    this.logger.error(
      `Unexpected error in ${req.method} ${instance} (request ${requestId})`,
      error instanceof Error ? error.stack : String(error),
    );
    return make(
      500,
      'internal',
      `An unexpected error occurred; quote request id ${requestId}.`,
    );
  }
}
