/** `slashd world`: the running world, through the admin API. Exit 0, or 2 when it cannot be read. */
import type { DeliveryRoute } from '../resources/gateway/delivery-lookup.js';
import {
  ADMIN_TOKEN_OPTIONS,
  adminToken,
  fetchWorld,
  requestJson,
  serverUrl,
  type Env,
  type ServerTarget,
} from './client.js';
import { EXIT_OK, parseCommandLine, reportUsageError, UsageError, type Output } from './usage.js';
import { worldLines } from './world-text.js';

export async function runWorld(argv: string[], out: Output, env: Env = process.env): Promise<number> {
  try {
    const { values, positionals } = parseCommandLine(argv, {
      url: { type: 'string' },
      ...ADMIN_TOKEN_OPTIONS,
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const url = serverUrl(values.url as string | undefined, env);
    const target = { url, adminToken: adminToken(values, env) };
    const world = await fetchWorld(target);
    for (const line of worldLines(world, await fetchDeliveryRoutes(target))) out.log(line);
    return EXIT_OK;
  } catch (error) {
    if (error instanceof UsageError) return reportUsageError('world', error, out);
    throw error;
  }
}

/** Where each app's interactions go (GET /admin/delivery); none from a server that does not say. */
async function fetchDeliveryRoutes(target: ServerTarget): Promise<DeliveryRoute[] | undefined> {
  const answer = await requestJson(`${target.url}/admin/delivery`, { auth: `Bearer ${target.adminToken}` });
  return answer.status === 200 && Array.isArray(answer.body) ? (answer.body as DeliveryRoute[]) : undefined;
}
