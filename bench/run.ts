/**
 * `npm run bench`: every benchmark in bench/, each reported against its same-run baseline.
 * `node dist/bench/run.js NAME... [--FLAG...]` runs the named ones; flags go to every benchmark run.
 */
import { runCommandIndexBench } from './command-index.bench.js';
import { runCommandsBench } from './commands.bench.js';
import { runConsoleBench } from './console.bench.js';
import { runFaultsBench } from './faults.bench.js';
import { runGatewayBench } from './gateway.bench.js';
import { runGrowthBench } from './growth.bench.js';
import { runInteractionPollsBench } from './interaction-polls.bench.js';
import { runInteractionsBench } from './interactions.bench.js';
import { runMembersBench } from './members.bench.js';
import { runMemoryBench } from './memory.bench.js';
import { runMessagesBench } from './messages.bench.js';
import { runMetricsBench } from './metrics.bench.js';
import { runNodesBench } from './nodes.bench.js';
import { runPaceBench } from './pace.bench.js';
import { runPermissionsBench } from './permissions.bench.js';
import { runProfilesBench } from './profiles.bench.js';
import { runRateLimitsBench } from './rate-limits.bench.js';
import { runScaleBench } from './scale.bench.js';
import { runStoresBench } from './stores.bench.js';
import { runTestingKitBench } from './testing-kit.bench.js';
import { runValidationBench } from './validation.bench.js';
import { runWebhooksPollsBench } from './webhooks-polls.bench.js';
import { runDispatchLogBench } from './dispatch-log.bench.js';
import { runWorldChangesBench } from './world-changes.bench.js';

interface Bench {
  name: string;
  run(flags: ReadonlySet<string>): Promise<{ lines: string[] }>;
}

const BENCHES: Bench[] = [
  { name: 'commands ', run: runCommandsBench },
  { name: 'validation ', run: runValidationBench },
  { name: 'permissions ', run: runPermissionsBench },
  { name: 'command-index ', run: runCommandIndexBench },
  { name: 'interactions ', run: runInteractionsBench },
  { name: 'interaction-polls ', run: runInteractionPollsBench },
  { name: 'gateway ', run: runGatewayBench },
  { name: 'metrics ', run: runMetricsBench },
  { name: 'memory ', run: runMemoryBench },
  { name: 'members ', run: runMembersBench },
  { name: 'rate-limits ', run: runRateLimitsBench },
  { name: 'stores ', run: runStoresBench },
  { name: 'scale ', run: runScaleBench },
  { name: 'nodes ', run: runNodesBench },
  { name: 'testing-kit ', run: runTestingKitBench },
  { name: 'console ', run: runConsoleBench },
  { name: 'faults ', run: runFaultsBench },
  { name: 'profiles ', run: runProfilesBench },
  { name: 'messages ', run: runMessagesBench },
  { name: 'world-changes ', run: runWorldChangesBench },
  { name: 'growth ', run: runGrowthBench },
  { name: 'webhooks-polls ', run: runWebhooksPollsBench },
  { name: 'dispatch-log ', run: runDispatchLogBench },
  { name: 'pace ', run: runPaceBench },
];

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const only = args.filter((a) => !a.startsWith('--'));
  const flags = new Set(args.filter((a) => a.startsWith('--')));
  for (const bench of BENCHES) {
    if (only.length > 0 && !only.some((o) => bench.name.includes(o))) continue;
    console.log(`## ${bench.name}`);
    const { lines } = await bench.run(flags);
    for (const line of lines) console.log(line);
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
