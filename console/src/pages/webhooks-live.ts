// What the webhook pages read from the service, and the polling that keeps
// their live figures current while a page is open.
import { useEffect, useRef, useState } from 'preact/hooks';

/** A subscription as the administration API shows it: never its secret. */
export interface Webhook {
  id: string;
  url: string;
  eventTypes: string[];
  description?: string;
  enabled: boolean;
  status: string;
  createdAt: string;
  updatedAt: string;
  secretCreatedAt: string;
  previousSecretExpiresAt?: string;
}

/** A subscription's delivery, as GET …/status reads it at each request. */
export interface WebhookStatus {
  status: string;
  position: string;
  backlog: number;
  oldestUndeliveredAt?: string;
  lagSeconds?: number;
  lastDeliveredAt?: string;
  lastDeliveredEventId?: string;
  lastErrorAt?: string;
  lastError?: string;
  failedAttempts: number;
  failingSince?: string;
  nextAttemptAt?: string;
}

/** One attempt of the delivery log. */
export interface Attempt {
  id: string;
  eventId: string;
  attemptedAt: string;
  durationMs: number;
  status?: number;
  error?: string;
  /** When the event was committed; absent once the change log dropped it. */
  eventOccurredAt?: string;
}

/** How often the live figures are read again while a page is open. */
export const POLL_MS = 3000;

export const webhookPath = (id: string) =>
  `/webhooks/${encodeURIComponent(id)}`;

/** An attempt's lag in seconds (attemptedAt − eventOccurredAt), when its event is known. */
export function attemptLag(attempt: Attempt): number | undefined {
  if (!attempt.eventOccurredAt) return undefined;
  const lag =
    Date.parse(attempt.attemptedAt) - Date.parse(attempt.eventOccurredAt);
  return Number.isFinite(lag) ? Math.max(0, lag / 1000) : undefined;
}

/** An attempt's outcome in words: the receiver's status or the service's error. */
export const outcomeOf = (attempt: Attempt) =>
  attempt.status !== undefined
    ? `HTTP ${attempt.status}`
    : (attempt.error ?? 'failed');

export const delivered = (attempt: Attempt) =>
  attempt.status !== undefined && attempt.status >= 200 && attempt.status < 300;

/** Seconds as a short text: `0.4 s`, `12 s`, `3 min 5 s`. */
export function seconds(value: number | undefined): string {
  if (value === undefined) return '—';
  if (value === 0) return '0 s';
  if (value < 10) return `${value.toFixed(1)} s`;
  if (value < 120) return `${Math.round(value)} s`;
  const minutes = Math.floor(value / 60);
  return minutes < 120
    ? `${minutes} min ${Math.round(value - minutes * 60)} s`
    : `${Math.round(minutes / 60)} h`;
}

/**
 * Calls `read` now and every POLL_MS while the component is shown, one call
 * at a time; the last answer or error. A call made for an earlier `deps`
 * is dropped.
 */
export function usePoll<T>(
  read: () => Promise<T>,
  deps: unknown[],
  onAnswer?: (value: T) => void,
): { value?: T; error?: unknown } {
  const [state, setState] = useState<{ value?: T; error?: unknown }>({});
  const listener = useRef(onAnswer);
  listener.current = onAnswer;
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      try {
        const value = await read();
        if (!live) return;
        setState({ value });
        listener.current?.(value);
      } catch (error) {
        if (live) setState((s) => ({ ...s, error }));
      }
      if (live) timer = setTimeout(() => void tick(), POLL_MS);
    };
    void tick();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, deps);
  return state;
}
