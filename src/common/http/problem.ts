import { STATUS_CODES } from 'node:http';
import { DomainError } from '../errors';
import { FieldError } from '../validation/field-errors';

/** An RFC 9457 problem as the service writes it. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  errors?: FieldError[];
}

export const PROBLEM_TYPE_PREFIX = 'urn:problem:identity:';

export function problem(
  status: number,
  slug: string,
  detail: string,
  instance: string,
  title = STATUS_CODES[status] ?? 'Error',
): Problem {
  return {
    type: `${PROBLEM_TYPE_PREFIX}${slug}`,
    title,
    status,
    detail,
    instance,
  };
}

export function domainProblem(error: DomainError, instance: string): Problem {
  const body = problem(
    error.status,
    error.slug,
    error.message,
    instance,
    error.title,
  );
  if (error.errors) body.errors = error.errors;
  return body;
}

/** Errors raised below the service's own code (body parsing, Nest itself). */
export const FRAMEWORK_ERRORS: Record<
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
 * The problem of an error raised below the service's own code, by its key
 * in FRAMEWORK_ERRORS; `detail` where the error itself says more.
 */
export function frameworkProblem(
  key: string,
  instance: string,
  detail?: string,
): Problem {
  const known = FRAMEWORK_ERRORS[key];
  return problem(known.status, known.slug, detail ?? known.detail, instance);
}

/** The answer to an unexpected error: nothing but the request id to quote. */
export const internalProblem = (requestId: string, instance: string) =>
  problem(
    500,
    'internal',
    `An unexpected error occurred; quote request id ${requestId}.`,
    instance,
  );
