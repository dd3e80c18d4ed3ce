/**
 * What the interactions service asks the gateway before publishing INTERACTION_CREATE. It lives in
 * the core so that the service (which asks) and the gateway (which answers) both import it, and
 * neither imports the other.
 */
export interface GatewayPresence {
  /**
   * The session that gets the app's INTERACTION_CREATE in this guild (its shard's; the newest one
   * attached to a live node first), on whichever node; null when the app has none there.
   */
  sessionFor(applicationId: string, guildId: string | null): Promise<string | null>;
  /**
   * Whether sessions can be looked up now: false while Redis is away on a node that runs with it.
   * Checked before an invocation of a gateway app is stored, so a refused one leaves no record.
   */
  reachable(): boolean;
  /**
   * Keeps the interaction until it reaches the session's resume buffer or its deadline passes,
   * so that it is re-sent if the session dies with its node first; called before publishing it.
   */
  handOver(applicationId: string, sessionId: string, interaction: HandedInteraction): Promise<void>;
}

/** An interaction handed to a gateway session. */
export interface HandedInteraction {
  /** The INTERACTION_CREATE payload (its `id` and `guild_id` among it). */
  data: Record<string, unknown>;
  /** Epoch ms past which it is not delivered any more (the deadline of its first answer). */
  deadline: number;
}
