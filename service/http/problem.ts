/** The service's problems for failures no handler anticipated (sdk/core's HttpProblem is the one error type). */
import { HttpProblem } from "../../sdk/core/index.ts";
import { DatabaseUnavailableError } from "../store/sql-client.ts";

/** What a client sees for a failure we did not anticipate: no detail, no stack. */
export function internalProblem(): HttpProblem {
  return new HttpProblem(
    500,
    "internal_error",
    "Something went wrong on our side; quote the request id to support.",
  );
}

/** An error no handler turned into a problem: storage outages are worth a retry (503), anything else is ours (500). */
export function unexpectedProblem(error: unknown): HttpProblem {
  if (error instanceof DatabaseUnavailableError) {
    return new HttpProblem(503, "unavailable", "The service cannot reach its database; retry shortly.", {
      headers: { "Retry-After": "1" },
    });
  }
  return internalProblem();
}
