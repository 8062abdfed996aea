import type { components } from './schema';

/** An RFC 9457 problem as the service writes it. */
export type Problem = components['schemas']['ProblemResponse'];
/** One refused value of a request: its JSON path and what is wrong with it. */
export type FieldError = components['schemas']['FieldErrorResponse'];

const PROBLEM_TYPE_PREFIX = 'urn:problem:identity:';

/**
 * An answer that is not a success and not an RFC 9457 problem (a SCIM
 * error, or what a proxy answered): its status and its body as it came.
 */
export class ApiError extends Error {
  override name = 'ApiError';

  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly response: Response,
    message = `${response.url} answered ${status}`,
  ) {
    super(message);
  }
}

/**
 * An `application/problem+json` answer as an error: `slug` is its type
 * after `urn:problem:identity:` (`precondition-failed`, `too-many-requests`…),
 * `errors` the refused fields of a 400 (empty otherwise), `retryAfterSeconds`
 * what `Retry-After` said when retrying did not fit in the client's bound.
 */
export class ProblemError extends ApiError implements Problem {
  override name = 'ProblemError';
  readonly type: string;
  readonly slug: string;
  readonly title: string;
  readonly detail: string;
  readonly instance: string;
  readonly errors: FieldError[];
  readonly retryAfterSeconds?: number;

  constructor(problem: Problem, response: Response) {
    super(
      problem.status,
      problem,
      response,
      `${problem.status} ${problem.title}: ${problem.detail}`,
    );
    this.type = problem.type;
    this.slug = problem.type.startsWith(PROBLEM_TYPE_PREFIX)
      ? problem.type.slice(PROBLEM_TYPE_PREFIX.length)
      : problem.type;
    this.title = problem.title;
    this.detail = problem.detail;
    this.instance = problem.instance;
    this.errors = problem.errors ?? [];
    const retryAfter = Number(response.headers.get('Retry-After') ?? NaN);
    if (Number.isFinite(retryAfter)) this.retryAfterSeconds = retryAfter;
  }
}

const isProblem = (body: unknown): body is Problem =>
  typeof body === 'object' &&
  body !== null &&
  typeof (body as Problem).type === 'string' &&
  typeof (body as Problem).status === 'number';

/** The error an unsuccessful answer stands for; reads its body. */
export async function errorOf(response: Response): Promise<ApiError> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (a proxy's page): kept as text.
  }
  const type = response.headers.get('Content-Type') ?? '';
  return type.startsWith('application/problem+json') && isProblem(body)
    ? new ProblemError(body, response)
    : new ApiError(response.status, body, response);
}
