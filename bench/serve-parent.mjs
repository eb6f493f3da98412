// The child side of a benchmark server (bench/children.ts): answers CPU-time and memory requests
// over the IPC channel, stops on request or when the parent goes away, and announces readiness.
// Plain JavaScript, so that a server run from the production build (bench/server-groundwork.mjs,
// `node` without tsx) can use it as the TypeScript servers do; types in serve-parent.d.mts.

/**
 * @param {string} url
 * @param {() => Promise<void>} stop
 * @param {Record<string, unknown>} [info]
 */
export function serveParent(url, stop, info = {}) {
  let stopping = false;
  const shutDown = () => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => process.exit(1), 8000);
    force.unref();
    stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('message', (message) => {
    if (message.type === 'cpu') {
      const usage = process.cpuUsage();
      process.send?.({
        type: 'cpu',
        id: message.id,
        userUs: usage.user,
        systemUs: usage.system,
        rssBytes: process.memoryUsage.rss(),
        // resourceUsage reports kilobytes.
        maxRssBytes: process.resourceUsage().maxRSS * 1024,
      });
    } else if (message.type === 'memory') {
      void collectedMemory().then((memory) => process.send?.({ type: 'memory', id: message.id, ...memory }));
    } else if (message.type === 'stop') shutDown();
  });
  process.on('disconnect', shutDown);
  process.on('SIGTERM', shutDown);
  process.send?.({ type: 'ready', url, info });
}

/** Full collections, with turns of the event loop between them (timers and finalisers run), then the figures. */
async function collectedMemory() {
  const gc = globalThis.gc;
  if (gc) {
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      gc();
    }
  }
  const m = process.memoryUsage();
  return { collected: gc !== undefined, rssBytes: m.rss, heapUsedBytes: m.heapUsed, heapTotalBytes: m.heapTotal, arrayBuffersBytes: m.arrayBuffers };
}
