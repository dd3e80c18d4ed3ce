/** `npm run bench`: every benchmark in bench/, each reported against its same-run baseline. */
import { runCommandsBench } from './commands.bench.js';
import { runGatewayBench } from './gateway.bench.js';
import { runInteractionsBench } from './interactions.bench.js';
import { runMetricsBench } from './metrics.bench.js';
import { runPermissionsBench } from './permissions.bench.js';
import { runScaleBench } from './scale.bench.js';
import { runRateLimitsBench } from './rate-limits.bench.js';
import { runValidationBench } from './validation.bench.js';

interface Bench {
  name: string;
  run(): Promise<{ lines: string[] }>;
}

const BENCHES: Bench[] = [
  { name: 'commands ', run: runCommandsBench },
  { name: 'validation ', run: runValidationBench },
  { name: 'permissions ', run: runPermissionsBench },
  { name: 'interactions ', run: runInteractionsBench },
  { name: 'gateway ', run: runGatewayBench },
  { name: 'metrics ', run: runMetricsBench },
  { name: 'memory ', run: runScaleBench },
  { name: 'rate-limits ', run: runRateLimitsBench },
];

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  for (const bench of BENCHES) {
    if (only.length > 0 && !only.some((o) => bench.name.includes(o))) continue;
    console.log(`## ${bench.name}`);
    const { lines } = await bench.run();
    for (const line of lines) console.log(line);
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
