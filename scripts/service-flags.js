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
//
// --liftoff-only: WebAssembly stays compiled by V8's baseline compiler
// (Liftoff). The service's WebAssembly is Prisma's query compiler (and,
// on the embedded database, PGlite); by default V8 recompiles a function
// it finds hot with its optimizing compiler in background threads, whose
// working memory glibc keeps: the query compiler's start alone raised
// the peak resident memory by 40–45 MB. With it, the service's start
// peaks at about 190 MB instead of 234–240, writes cost no more CPU, and
// the embedded database answers as fast (docs/benchmark.md, "WebAssembly
// in the baseline tier").
//
// --no-allocation-site-pretenuring: V8 allocates every object young. By
// default it watches the objects of each literal in the code and, once most
// of them outlive a collection of the young generation, allocates that
// literal's objects straight into the old generation from then on, for the
// life of the process. Under the first seconds of load a literal of the
// request path (an array holding a request and its response, say) can be
// judged so; its objects, dead in the old generation, then keep what they
// point to alive through every young collection until a full one: in 5 of
// 14 starts the service promoted 10–14 KB of every request and ran 5–7
// mark-compacts in 8 s, against 0.1 KB and none (docs/benchmark.md, "What
// survives a request"). It costs no CPU the runs can see.
//
// --v8-pool-size=1: one thread, not four, for V8's background work (its
// optimizing compiler's jobs, the collector's helpers). About 10,000
// requests into a fresh process V8 recompiles the whole request path with
// its optimizing compiler at once (some 120 functions in a second); with
// four threads that work took both cores of a 2-core machine from the
// event loop, PostgreSQL and the clients for half a second, and answers
// took 60–200 ms. With one, the event loop keeps a core: at a fixed rate of
// half the service's saturation its p99 was 6.8–26 ms in 7 starts against
// 21–196 ms in 8, at the same throughput, the same scavenge pauses and the
// same time to start (docs/benchmark.md, "The compiler's burst").
const SERVICE_NODE_FLAGS = [
  '--max-semi-space-size=16',
  '--liftoff-only',
  '--no-allocation-site-pretenuring',
  '--v8-pool-size=1',
];

module.exports = { SERVICE_NODE_FLAGS };
