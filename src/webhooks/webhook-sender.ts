import { Webhook } from 'standardwebhooks';
import {
  egressAgent,
  egressFetch as fetch,
  REFUSED_ADDRESS,
} from '../common/validation/egress-agent';
import { egressUrlProblem } from '../common/validation/egress-policy';

/** The most of a receiver's answer that is read (then dropped): 64 KiB. */
export const MAX_ANSWER_BYTES = 64 * 1024;

/** What one attempt came to. Never the receiver's words: only a status or an error's kind. */
export interface AttemptResult {
  ok: boolean;
  /** The HTTP status, when the receiver answered. */
  status?: number;
  /** What went wrong, in the service's words. */
  error?: string;
  /** How long the receiver asked the service to wait (`Retry-After`), in ms. */
  retryAfterMs?: number;
  durationMs: number;
}

/** A webhook's signing secrets: the current one, and the previous one during its overlap. */
export interface SigningSecrets {
  secret: string;
  previousSecret?: string | null;
}

/**
 * Why the service must not deliver to `url`, or undefined when it may: the
 * egress policy, under which only the tenants the operator lists
 * (`allowPrivate`) may reach loopback and private networks.
 */
export function webhookUrlProblem(
  url: string,
  allowPrivate: boolean,
): string | undefined {
  return egressUrlProblem(url, allowPrivate);
}

/** The `webhook-signature` header: one `v1,` signature per secret, space-separated. */
export function signatureOf(
  secrets: SigningSecrets,
  messageId: string,
  at: Date,
  body: string,
): string {
  return [secrets.secret, secrets.previousSecret]
    .filter((s): s is string => !!s)
    .map((s) => new Webhook(s).sign(messageId, at, body))
    .join(' ');
}

/** `Retry-After` in ms: seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterOf(
  value: string | null,
  now = Date.now(),
): number | undefined {
  if (!value) return undefined;
  if (/^\d{1,10}$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** An error's kind as the delivery log shows it. */
function reasonOf(error: unknown): string {
  const e = error as {
    name?: string;
    code?: string;
    message?: string;
    cause?: { code?: string; message?: string };
  };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError')
    return 'timed out';
  const code = e?.cause?.code ?? e?.code;
  if (code === REFUSED_ADDRESS)
    return `refused: ${e?.cause?.message ?? e?.message}`;
  return code ? `connection failed (${code})` : 'connection failed';
}

/** Reads at most MAX_ANSWER_BYTES of the answer and drops it, so the connection can be reused. */
async function drain(body: AsyncIterable<Uint8Array> | null): Promise<void> {
  if (!body) return;
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > MAX_ANSWER_BYTES) break;
  }
}

/**
 * POSTs one signed delivery to `url` by the Standard Webhooks rules:
 * redirects are not followed (a 3xx is a failure), the answer is read to a
 * small bound and dropped, the whole attempt ends within `timeoutMs`.
 */
export async function sendWebhook(request: {
  url: string;
  allowPrivate: boolean;
  messageId: string;
  body: string;
  secrets: SigningSecrets;
  timeoutMs: number;
}): Promise<AttemptResult> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  const problem = webhookUrlProblem(request.url, request.allowPrivate);
  if (problem)
    return { ok: false, error: `refused: the URL ${problem}`, durationMs: 0 };
  const at = new Date();
  const signal = AbortSignal.timeout(request.timeoutMs);
  try {
    const res = await fetch(request.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'identity-service-webhooks/1',
        'webhook-id': request.messageId,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': signatureOf(
          request.secrets,
          request.messageId,
          at,
          request.body,
        ),
      },
      body: request.body,
      redirect: 'manual',
      signal,
      dispatcher: egressAgent(request.allowPrivate),
    });
    await drain(res.body).catch(() => undefined);
    const status = res.status;
    if (status >= 200 && status < 300)
      return { ok: true, status, durationMs: took() };
    return {
      ok: false,
      status,
      error:
        status >= 300 && status < 400
          ? `answered a redirect (${status}), which is not followed`
          : `answered ${status}`,
      retryAfterMs: retryAfterOf(res.headers.get('retry-after')),
      durationMs: took(),
    };
  } catch (error) {
    return { ok: false, error: reasonOf(error), durationMs: took() };
  }
}
