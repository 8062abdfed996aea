import { Webhook } from 'standardwebhooks';
import type { webhooks } from './schema';

/** A webhook's payload, one type per event type of the OpenAPI document. */
export type WebhookEvent = {
  [
    Type in keyof webhooks
  ]: webhooks[Type]['post']['requestBody']['content']['application/json'];
}[keyof webhooks];

/** A delivery's headers: Node's `req.headers`, a fetch `Headers`, or a plain object. */
export type WebhookHeaders =
  Headers | Record<string, string | string[] | undefined>;

const SIGNED = [
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
] as const;

function header(headers: WebhookHeaders, name: string): string {
  const value =
    headers instanceof Headers
      ? headers.get(name)
      : Object.entries(headers).find(
          ([key]) => key.toLowerCase() === name,
        )?.[1];
  return (Array.isArray(value) ? value.join(' ') : value) ?? '';
}

/**
 * The event of a delivery, once its signature is checked by the Standard
 * Webhooks rules with the subscription's secret (`whsec_…`): a signature
 * by the secret, and a timestamp within five minutes of now. `body` is the
 * request body exactly as it arrived (not parsed and serialized again).
 * Throws `WebhookVerificationError` otherwise.
 */
export function verifyWebhook(
  secret: string,
  headers: WebhookHeaders,
  body: string | Uint8Array,
): WebhookEvent {
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  const signed = Object.fromEntries(
    SIGNED.map((name) => [name, header(headers, name)]),
  );
  return new Webhook(secret).verify(text, signed) as WebhookEvent;
}

export { WebhookVerificationError } from 'standardwebhooks';
