/**
 * Composition root: read the configuration, build the adapters and services,
 * start the HTTP server, and shut everything down cleanly on SIGTERM/SIGINT.
 */
import { closeToolThreads } from './tools/runner.js';
import { pathToFileURL } from 'node:url';
import pino from 'pino';
import type { Store } from './ports/storage.js';
import { compose } from './compose.js';
import { prepareQuestionPath } from './knowledge/query/warm-up.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { buildApp, loggerOptions } from './http/app.js';
import type { App } from './http/types.js';

/** How long a shutdown waits for requests and streams before it closes the connections left. */
const shutdownGraceMs = 10_000;

export interface Running {
  app: App;
  store: Store;
  url: string;
  stop(): Promise<void>;
}

export async function start(config: Config): Promise<Running> {
  const logger = pino(loggerOptions(config.logLevel) as pino.LoggerOptions);
  const composition = await compose(config, logger);
  const { store } = composition;
  const app = await buildApp(composition.deps);

  const housekeeping = setInterval(() => {
    store.accounts.purgeExpired(new Date().toISOString()).catch((err) => logger.warn({ err }, 'housekeeping failed'));
  }, 3600_000);
  housekeeping.unref();

  // The question path's data read and its code run once before the first question, not by it: the
  // first visitors' questions held every tenant's requests for up to 280 ms (language/preload.ts,
  // knowledge/query/warm-up.ts).
  const warmUpMs = prepareQuestionPath();
  const address = await app.listen({ port: config.port, host: config.host });
  logger.info(
    { url: config.publicUrl, dashboard: `${config.publicUrl}/dashboard`, listening: address, store: store.kind, devMode: config.devMode, warmUpMs },
    'Groundwork is running',
  );

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      clearInterval(housekeeping);
      // Stops accepting and waits for in-flight requests (streams get 5 s, routes/query.ts). Node closes
      // the connections idle at that moment only: one whose request ends later would otherwise hold
      // the close for the whole keep-alive timeout, so idle ones are closed as they appear, and
      // whatever is left after the grace period is cut (docs/decisions.md, "Streams").
      const sweep = setInterval(() => app.server.closeIdleConnections(), 200);
      const cut = setTimeout(() => app.server.closeAllConnections(), shutdownGraceMs);
      try {
        await app.close();
      } finally {
        clearInterval(sweep);
        clearTimeout(cut);
      }
      await composition.close();
      await closeToolThreads();
    })();
    return stopping;
  };
  return { app, store, url: address, stop };
}

/**
 * The one line for the person who ran `npm start`: where the dashboard is and, in development,
 * where sign-in codes appear. `main` logs it (JSON, stdout) and, on a terminal, also writes it plain to stderr.
 */
export function startMessage(config: Pick<Config, 'publicUrl' | 'devMode'>): string {
  const outbox = config.devMode ? ` (development: sign-in codes appear at ${config.publicUrl}/dev/outbox)` : '';
  return `Groundwork is running: open ${config.publicUrl}/dashboard${outbox}`;
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const running = await start(config);
  // In the JSON log (stdout stays one object per line), and as a plain line on a terminal.
  running.app.log.info({ dashboard: `${config.publicUrl}/dashboard` }, startMessage(config));
  if (process.stderr.isTTY) process.stderr.write(`${startMessage(config)}\n`);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      running.app.log.info({ signal }, 'shutting down');
      const force = setTimeout(() => process.exit(1), 10_000);
      force.unref();
      running.stop().then(
        () => process.exit(0),
        (err) => {
          running.app.log.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}

// Run only when executed directly (tests import `start`).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`Groundwork failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
