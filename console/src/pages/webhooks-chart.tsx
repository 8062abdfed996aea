// A subscription's lag over time, drawn here as SVG: each logged attempt at
// its attemptedAt − eventOccurredAt (a dot, hollow when it failed), and the
// live lag the status gives while the page is open (a line). Colours are
// SVG presentation attributes, never a style.
import { attemptLag, delivered, seconds, type Attempt } from './webhooks-live';

/** A reading of GET …/status: when, and the lag it gave (0 with no backlog). */
export interface LagSample {
  at: number;
  lagSeconds: number;
}

const WIDTH = 640;
const HEIGHT = 220;
const PAD = { left: 56, right: 16, top: 12, bottom: 36 };
const INK = '#1b1f24';
const MUTED = '#57606a';
const LINE = '#0a5bc4';
const FAILED = '#b42318';

interface Point {
  at: number;
  lag: number;
  ok: boolean;
}

/** The attempts with a known lag, as points. */
const pointsOf = (attempts: Attempt[]): Point[] =>
  attempts.flatMap((a) => {
    const lag = attemptLag(a);
    return lag === undefined
      ? []
      : [{ at: Date.parse(a.attemptedAt), lag, ok: delivered(a) }];
  });

const clock = (ms: number) => new Date(ms).toISOString().slice(11, 19);

/** The longest time the chart spans, up to its last point or reading. */
const WINDOW_MS = 15 * 60_000;
/** The shortest it spans: a lone reading still has a place on the axis. */
const MIN_SPAN_MS = 30_000;

export function LagChart({
  attempts,
  samples,
}: {
  attempts: Attempt[];
  samples: LagSample[];
}) {
  const latest = Math.max(
    ...attempts.map((a) => Date.parse(a.attemptedAt)),
    ...samples.map((s) => s.at),
  );
  const recent = (at: number) => at >= latest - WINDOW_MS;
  const points = pointsOf(attempts).filter((p) => recent(p.at));
  const live = samples.filter((s) => recent(s.at));
  const times = [...points.map((p) => p.at), ...live.map((s) => s.at)];
  const lags = [...points.map((p) => p.lag), ...live.map((s) => s.lagSeconds)];
  if (times.length === 0)
    return (
      <p class="muted">
        No lag to draw yet: no attempt is logged and no reading came.
      </p>
    );
  let start = Math.min(...times);
  const end = Math.max(...times);
  if (end - start < MIN_SPAN_MS) start = end - MIN_SPAN_MS;
  const top = Math.max(1, ...lags) * 1.1;
  const x = (at: number) =>
    PAD.left + ((at - start) / (end - start)) * (WIDTH - PAD.left - PAD.right);
  const y = (lag: number) =>
    HEIGHT - PAD.bottom - (lag / top) * (HEIGHT - PAD.top - PAD.bottom);
  const last = live.at(-1);
  const summary = [
    `Highest lag shown ${seconds(Math.max(...lags))}`,
    last &&
      `latest live lag ${seconds(last.lagSeconds)} at ${clock(last.at)} UTC`,
    `${points.length} logged attempts (${points.filter((p) => !p.ok).length} failed) and ${live.length} live readings, from ${clock(start)} to ${clock(end)} UTC`,
  ]
    .filter(Boolean)
    .join('; ');
  return (
    <figure class="lag-chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width="100%"
        role="img"
        aria-labelledby="lag-chart-title lag-chart-desc"
      >
        <title id="lag-chart-title">Delivery lag over time</title>
        <desc id="lag-chart-desc">{summary}</desc>
        <Axes start={start} end={end} top={top} x={x} y={y} />
        {live.length > 1 && (
          <polyline
            fill="none"
            stroke={LINE}
            stroke-width="2"
            points={live
              .map((s) => `${x(s.at).toFixed(1)},${y(s.lagSeconds).toFixed(1)}`)
              .join(' ')}
          />
        )}
        {live.length === 1 && (
          <circle
            cx={x(live[0].at)}
            cy={y(live[0].lagSeconds)}
            r="3"
            fill={LINE}
          />
        )}
        {points.map((p, i) => (
          <circle
            key={i}
            cx={x(p.at).toFixed(1)}
            cy={y(p.lag).toFixed(1)}
            r="4"
            fill={p.ok ? INK : 'none'}
            stroke={p.ok ? INK : FAILED}
            stroke-width="2"
          />
        ))}
      </svg>
      <figcaption>
        <span class="hint">
          Dots: logged attempts (hollow red: failed). Line: live lag read every
          few seconds while this page is open.
        </span>
        {summary}.
      </figcaption>
    </figure>
  );
}

function Axes({
  start,
  end,
  top,
  x,
  y,
}: {
  start: number;
  end: number;
  top: number;
  x: (at: number) => number;
  y: (lag: number) => number;
}) {
  const ticks = [0, top / 2, top];
  return (
    <g aria-hidden="true" font-size="11" fill={MUTED}>
      <line
        x1={PAD.left}
        y1={y(0)}
        x2={WIDTH - PAD.right}
        y2={y(0)}
        stroke={MUTED}
      />
      <line x1={PAD.left} y1={y(0)} x2={PAD.left} y2={PAD.top} stroke={MUTED} />
      {ticks.map((tick) => (
        <g key={tick}>
          <line
            x1={PAD.left - 4}
            y1={y(tick)}
            x2={PAD.left}
            y2={y(tick)}
            stroke={MUTED}
          />
          <text x={PAD.left - 6} y={y(tick) + 4} text-anchor="end">
            {seconds(tick)}
          </text>
        </g>
      ))}
      <text x={x(start)} y={HEIGHT - 14} text-anchor="start">
        {clock(start)}
      </text>
      <text x={x(end)} y={HEIGHT - 14} text-anchor="end">
        {clock(end)} UTC
      </text>
      <text
        x={(PAD.left + WIDTH - PAD.right) / 2}
        y={HEIGHT - 2}
        text-anchor="middle"
      >
        time of attempt or reading
      </text>
    </g>
  );
}
