/**
 * The baseline server (see bench/bare-app.ts), logger off, started exactly
 * like bench/server-groundwork.mjs. The runner captures a real cached answer
 * from Groundwork and passes it in BENCH_BARE_BODY_FILE.
 */
import fs from 'node:fs';
import { type BareAnswer, buildBareApp, fallbackAnswer } from './bare-app.js';
import { serveParent } from './children.js';

const file = process.env.BENCH_BARE_BODY_FILE;
const app = buildBareApp(file ? (JSON.parse(fs.readFileSync(file, 'utf8')) as BareAnswer) : fallbackAnswer);
const url = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
serveParent(url, () => app.close(), { fastify: app.version });
