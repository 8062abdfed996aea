// The cost ledger's allocation probe (bench/ledger.js), loaded into each
// server it measures with `node --require bench/alloc-probe.js`, never by
// the service itself. Over the IPC channel the ledger opens, `begin` starts
// a window and `end` closes it and answers what the process's V8 heap did
// meanwhile:
//
// - allocatedBytes: bytes allocated on V8's heap (objects, strings, code;
//   not Buffers' memory). Node 24's heap statistics have no running total
//   of allocation, so it is summed from V8's GC callbacks (v8.GCProfiler):
//   the heap in use only grows between two collections, by what is
//   allocated, so what was allocated is the heap in use before each
//   collection less the heap in use after the one before it (or at the
//   window's start), plus the growth after the last one.
// - promotedBytes: bytes that scavenges moved into the old generation:
//   what lived long enough to be kept (what mark-compacts then collect).
// - pauseMs: the main thread's time in the collector's callbacks
//   (scavenges, mark-compacts' final pauses, the start of incremental
//   marking, weak callbacks): time the event loop serves nothing. Marking
//   steps between them and the collector's helper threads are not pauses;
//   they count in the process's CPU.
//
// The profiler writes to a C++ stream: nothing is allocated on the heap
// measured until the window closes. Outside a window nothing runs.
const v8 = require('node:v8');

/** The used bytes of the spaces outside the young generation. */
const oldGeneration = (heap) =>
  heap.heapSpaceStatistics.reduce((sum, space) => (space.spaceName.startsWith('new_') ? sum : sum + space.spaceUsedSize), 0);

/**
 * The window's figures from the heap in use at its start and end and the
 * profiler's collections. A collection the reading of the end itself set
 * off (its result is allocated after the value is read) began at that
 * value, within the result's size: it is left out.
 */
function summarise(startUsed, endUsed, statistics) {
  const lastBegan = statistics.at(-1)?.beforeGC.heapStatistics.usedHeapSize;
  const within = lastBegan >= endUsed && lastBegan - endUsed < 4096 ? statistics.slice(0, -1) : statistics;
  let allocatedBytes = 0;
  let promotedBytes = 0;
  let pauseUs = 0;
  let used = startUsed;
  const collections = {};
  for (const { gcType, beforeGC, afterGC, cost } of within) {
    allocatedBytes += beforeGC.heapStatistics.usedHeapSize - used;
    used = afterGC.heapStatistics.usedHeapSize;
    // (The old generation can also shrink a little meanwhile, by the sweeper's work: no promotion.)
    if (gcType === 'Scavenge') promotedBytes += Math.max(0, oldGeneration(afterGC) - oldGeneration(beforeGC));
    pauseUs += cost;
    collections[gcType] = (collections[gcType] ?? 0) + 1;
  }
  allocatedBytes += endUsed - used;
  return { allocatedBytes, promotedBytes, pauseMs: pauseUs / 1000, collections };
}

if (process.send) {
  let window;
  process.on('message', (message) => {
    if (message?.allocProbe === 'begin') {
      // Started first: a collection the reading sets off is then recorded, and begins at the value read.
      const profiler = new v8.GCProfiler();
      profiler.start();
      window = { profiler, startUsed: v8.getHeapStatistics().used_heap_size };
      process.send({ allocProbe: 'begin' });
    } else if (message?.allocProbe === 'end' && window) {
      const endUsed = v8.getHeapStatistics().used_heap_size;
      const { statistics } = window.profiler.stop();
      const figures = summarise(window.startUsed, endUsed, statistics);
      window = undefined;
      process.send({ allocProbe: 'end', ...figures });
    }
  });
  // The channel does not keep the process alive.
  process.channel.unref();
}

module.exports = { summarise };
