// The performance targets, checked on one run's figures (bench/run.js):
//
//   (a) GET current identity: p99 at saturation no higher than the peer's;
//   (b) at a fixed rate of half the service's own saturation, p99 ≤ 3× the floor's;
//   (c) peak resident memory ≤ 250 MB through every GET scenario;
//   (d) requests/s ≥ 0.40 of the floor's and ≥ 1.6× the peer's.
//
// (a) and (d) on GET current identity and on its small-tenant variant, where
// the run measured them; (b) on GET current identity, the one scenario
// driven at a fixed rate; (c) on the peak after each scenario of GET
// requests: the identity API's (named GET, run first), then the SCIM
// searches (GETs too); the PUT runs after them all, so that the span is the
// GETs' alone (the peak only grows: PUT's is printed after theirs).

const MAX_P99_VS_FLOOR = 3;
const MAX_RSS_MB = 250;
const MIN_VS_FLOOR = 0.4;
const MIN_VS_PEER = 1.6;

const round2 = (x) => Number(x.toFixed(2));
const two = (x) => x.toFixed(2);
const NOT_MEASURED = { figures: 'not measured in this run', met: null };

/** (a): the service's p99 at saturation against the peer's. */
function p99VsPeer(row) {
  const [s, p] = [row?.service, row?.peer];
  if (!s || !p) return NOT_MEASURED;
  return { service: s.p99, peer: p.p99, figures: `${s.p99} vs ${p.p99} ms`, met: s.p99 <= p.p99 };
}

/** (b): at half the service's saturation, its p99 against the floor's. */
function p99AtRate(run) {
  if (!run) return NOT_MEASURED;
  const times = round2(run.service.p99 / run.floor.p99);
  const figures = `${run.service.p99} vs ${run.floor.p99} ms at ${run.rate} req/s: ${two(times)}× (≤ ${MAX_P99_VS_FLOOR}×)`;
  return { rate: run.rate, service: run.service.p99, floor: run.floor.p99, times, figures, met: times <= MAX_P99_VS_FLOOR };
}

/** The scenarios whose requests are GETs: the identity API's, and the SCIM searches. */
const GETS = /^(GET |SCIM Users)/;

/** (c): the highest peak after a GET scenario, and what set it (the first figure that high). */
function peakThroughGets(rows, startPeakRssMb) {
  const gets = rows.filter((r) => GETS.test(r.scenario) && r.service?.peakRssMb !== undefined);
  if (!gets.length) return NOT_MEASURED;
  const peak = Math.max(...gets.map((r) => r.service.peakRssMb));
  const setBy = startPeakRssMb >= peak ? 'starting' : gets.find((r) => r.service.peakRssMb === peak).scenario;
  const where = setBy === 'starting' ? 'set while starting' : `set by ${setBy}`;
  return { peakRssMb: peak, setBy, figures: `${peak} MB, ${where} (≤ ${MAX_RSS_MB} MB)`, met: peak <= MAX_RSS_MB };
}

/** (d): the service's requests/s as a fraction of the floor's and a multiple of the peer's. */
function throughput(row) {
  const [s, p, f] = [row?.service, row?.peer, row?.baseline];
  if (!s || !p || !f) return NOT_MEASURED;
  const [vsFloor, vsPeer] = [round2(s.rps / f.rps), round2(s.rps / p.rps)];
  const figures = `${s.rps} req/s: ${two(vsFloor)} of the floor's ${f.rps} (≥ ${two(MIN_VS_FLOOR)}), ${two(vsPeer)}× the peer's ${p.rps} (≥ ${MIN_VS_PEER})`;
  return { vsFloor, vsPeer, figures, met: vsFloor >= MIN_VS_FLOOR && vsPeer >= MIN_VS_PEER };
}

/**
 * The targets of a run: `rows` its scenarios (bench/results.json's
 * `scenarios`), `atRate` its fixed-rate runs, `current` the names of GET
 * current identity and its small-tenant variant, `startPeakRssMb` the
 * service's peak right after it started. One entry per target and scenario.
 */
function targets({ rows, atRate, current, startPeakRssMb }) {
  const row = (name) => rows.find((r) => r.scenario === name);
  const ownRate = atRate.find((run) => run.what === "the service's");
  return [
    ...current.map((name) => ({ target: 'a', what: "p99 at saturation ≤ the peer's", scenario: name, ...p99VsPeer(row(name)) })),
    { target: 'b', what: `at half the service's saturation, p99 ≤ ${MAX_P99_VS_FLOOR}× the floor's`, scenario: current[0], ...p99AtRate(ownRate) },
    { target: 'c', what: `peak RSS ≤ ${MAX_RSS_MB} MB through every GET scenario`, scenario: 'every GET scenario', ...peakThroughGets(rows, startPeakRssMb) },
    ...current.map((name) => ({
      target: 'd',
      what: `req/s ≥ ${two(MIN_VS_FLOOR)} of the floor's and ≥ ${MIN_VS_PEER}× the peer's`,
      scenario: name,
      ...throughput(row(name)),
    })),
  ];
}

/** The targets as a Markdown table. */
function targetsTable(entries) {
  const verdict = (met) => (met === null ? '–' : met ? 'met' : 'not met');
  return [
    '| Target | Scenario | This run | |',
    '|---|---|---|---|',
    ...entries.map((t) => `| (${t.target}) ${t.what} | ${t.scenario} | ${t.figures} | ${verdict(t.met)} |`),
  ].join('\n');
}

module.exports = { targets, targetsTable };
