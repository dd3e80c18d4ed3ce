/**
 * What the interactions service asks the gateway before publishing INTERACTION_CREATE. It lives in
 * the core so that the service (which asks) and the gateway (which answers) both import it, and
 * neither imports the other.
 */
export interface GatewayPresence {
  /**
   * The session that gets the app's INTERACTION_CREATE in this guild (its shard's; an attached one
   * first), on whichever node; null when the app has none there.
   */
  sessionFor(applicationId: string, guildId: string | null): Promise<string | null>;
}
