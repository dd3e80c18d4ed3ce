/**
 * Where each app's interactions go, as `deliver` decides it (interaction-delivery.ts): to its
 * interactions endpoint when one is set (and then never to the gateway), else to a bot logged in
 * on the gateway with its token; with neither, every invocation fails at once. The start banner
 * and `slashd world` (through GET /admin/delivery) print it, so a developer sees why their bot
 * gets nothing before they invoke anything.
 */
import type { Application } from '../../core/world/types.js';
import type { GatewayPresence } from '../../core/gateway/presence.js';

export interface DeliveryRoute {
  application_id: string;
  /** The endpoint interactions are POSTed to; null when the app has none. */
  interactions_endpoint_url: string | null;
  /** Whether a bot of the app holds a gateway session now (on any node). */
  gateway_connected: boolean;
}

export async function deliveryRoutes(
  apps: readonly Pick<Application, 'id' | 'interactions_endpoint_url'>[],
  presence: GatewayPresence,
): Promise<DeliveryRoute[]> {
  const routes: DeliveryRoute[] = [];
  for (const app of apps) {
    routes.push({
      application_id: app.id,
      interactions_endpoint_url: app.interactions_endpoint_url,
      // Shard 0's session: the one DMs and unsharded bots use; any connected bot has one.
      gateway_connected: (await presence.sessionFor(app.id, null)) !== null,
    });
  }
  return routes;
}

/** The route in words: "endpoint URL", or "gateway (bot connected)" / "gateway (no bot connected: invocations fail)". */
export function deliveryRouteText(route: DeliveryRoute): string {
  if (route.interactions_endpoint_url !== null) return `interactions → endpoint ${route.interactions_endpoint_url}`;
  return route.gateway_connected
    ? 'interactions → gateway (a bot is connected)'
    : "interactions → gateway (no bot connected: invocations fail until a bot logs in with this app's token)";
}
