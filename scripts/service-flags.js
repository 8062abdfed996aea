// The Node.js flags the service runs with, wherever it is started: `npm
// start` (package.json), the image (Dockerfile's CMD), the local
// topologies and the benchmark. They are launch flags: V8 sizes its young
// generation when the process starts, so src/main.ts cannot set them
// itself. A unit test (src/ops/service-flags.spec.ts) keeps package.json's
// start script and the Dockerfile's CMD equal to this list.
//
// --max-semi-space-size=16 (MB): V8 sizes the young generation's two
// halves from the machine's memory (32 MB each on the 24 GiB development
// machine); 16 MB keeps the service's peak resident memory under load 60–90
// MB lower at no cost in throughput beyond the runs' spread
// (docs/benchmark.md, "The young generation, in full runs").
const SERVICE_NODE_FLAGS = ['--max-semi-space-size=16'];

module.exports = { SERVICE_NODE_FLAGS };
