import { Redis } from 'ioredis';
import { RedisAdmission } from './src/adapters/cache/redis-admission.js';
const redis = new Redis('redis://127.0.0.1:6379/5');
await redis.flushdb();
async function cpu(): Promise<number> { const info = await redis.info('cpu'); const u = /used_cpu_user:([\d.]+)/.exec(info)![1]; const s = /used_cpu_sys:([\d.]+)/.exec(info)![1]; return Number(u) + Number(s); }
const adm = new RedisAdmission(redis, { limitPrefix: 'p:rl:', cachePrefix: 'p:c:', stampPrefix: 'p:kbv:' });
const windowMs = Number(process.argv[2] ?? 60000);
const rules = [
  { name: 'minute', key: 'kb1', kind: 'sliding' as const, limit: 1e9, windowMs },
  { name: 'day', key: 'kb1', kind: 'utc-day' as const, limit: 1e9 },
];
const clientRules = [{ name: 'ip', key: '127.0.0.1', kind: 'sliding' as const, limit: 1e9, windowMs: 1000 }];
let stamp: string | undefined;
let now = Date.now();
async function round(n: number) {
  const ps = [];
  for (let i = 0; i < 16; i++) { now += 0.05; ps.push(adm.check({ ragId: 'kb1', stamp, rules, clientRules, now: Math.floor(now), cacheKey: 'q1' } as any)); }
  const rs = await Promise.all(ps);
  for (const r of rs) if (r.kind === 'stale') stamp = r.stamp;
}
for (let i = 0; i < 5000; i++) await round(16);
const c0 = await cpu(); const t0 = Date.now();
const N = 20000;
for (let i = 0; i < N; i++) await round(16);
const c1 = await cpu();
console.log('window', windowMs, 'redis µs/check', ((c1 - c0) * 1e6 / (N * 16)).toFixed(2), 'zcard', await redis.zcard('p:rl:minute:kb1'), 'ms', Date.now() - t0);
await redis.flushdb(); redis.disconnect();
