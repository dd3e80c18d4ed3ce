/**
 * slashd as a child process for the gateway benchmark's memory figures: started like `slashd serve`
 * (a world file, a fresh SQLite file) but under `--expose-gc`, and answering the line "memory" on
 * its stdin with "memory <rss> <heap used + external>" (bytes) after a full garbage collection, so that RSS before and after
 * the sessions compares live memory, not garbage the world import left behind.
 */
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createSlashd } from '../src/app.js';
import { DEFAULT_LOG_LEVEL } from '../src/cli/serve-args.js';
import { parseWorld } from '../src/core/world/parse.js';

/** Reports RSS after a full collection; the child runs with --expose-gc. */
export function reportMemoryOnRequest(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line.trim() !== 'memory') return;
    collect?.();
    collect?.();
    const usage = process.memoryUsage();
    console.log(`memory ${usage.rss} ${usage.heapUsed + usage.external}`);
  });
}

async function main(): Promise<void> {
  const [worldPath, dbPath] = process.argv.slice(2);
  if (!worldPath || !dbPath) throw new Error('usage: gateway-node <world.json> <db>');
  const parsed = parseWorld(JSON.parse(readFileSync(worldPath, 'utf8')));
  if (!parsed.ok) throw new Error(`world invalid: ${JSON.stringify(parsed.issues).slice(0, 500)}`);
  const slashd = await createSlashd({
    db: dbPath,
    world: parsed.value,
    adminToken: 'bench',
    logLevel: DEFAULT_LOG_LEVEL,
  });
  const url = await slashd.listen({ host: '127.0.0.1', port: 0 });
  reportMemoryOnRequest();
  console.log(`listening on ${url}`);
  process.on('SIGTERM', () => {
    void slashd.close().then(() => process.exit(0));
  });
}

if (process.argv[1]?.endsWith('gateway-node.js')) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
