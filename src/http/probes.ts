/** What a node shows its probes and scrapers: readiness (`/readyz`) and the metrics text (`/metrics`). */

/** Readiness (`/readyz`): the store answers, and Redis with many nodes. */
export interface ReadinessChecks {
  store: () => Promise<void>;
  /** With many nodes (`--redis`): Redis answers. */
  redis?: (() => Promise<void>) | undefined;
}

/** The metrics as `GET /metrics` serves them. */
export interface MetricsExposition {
  readonly contentType: string;
  text(): Promise<string>;
}
