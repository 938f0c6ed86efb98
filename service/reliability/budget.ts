/**
 * How hard the reliability suites push. `npm test` runs them trimmed (a few dozen generated cases per
 * property, seconds of load); `npm run test:reliability` sets CITED_RELIABILITY=full for the whole run.
 */
export const fullRun = process.env.CITED_RELIABILITY === "full";

export const budget = {
  /** Generated cases per fast-check property. */
  propertyRuns: fullRun ? 400 : 30,
  /** Seconds each load step lasts. */
  loadStepSeconds: fullRun ? 15 : 3,
  /** Concurrency steps of the load test. */
  loadConcurrency: fullRun ? [1, 4, 16, 64] : [1, 8],
  /** Unknown API keys sent in the flood test. */
  unknownKeyFlood: fullRun ? 100_000 : 10_000,
  /** How long any single request may take before it counts as a hang. */
  requestTimeoutMs: 20_000,
};
