/** The service's problem for an error no handler turned into one (sdk/core's HttpProblem is the one error type). */
import { HttpProblem, internalProblem } from "../../sdk/core/index.ts";
import { DatabaseUnavailableError } from "../store/sql-client.ts";

/** An error no handler turned into a problem: storage outages are worth a retry (503), anything else is ours (500). */
export function unexpectedProblem(error: unknown): HttpProblem {
  if (error instanceof DatabaseUnavailableError) {
    return new HttpProblem(503, "unavailable", "The service cannot reach its database; retry shortly.", {
      headers: { "Retry-After": "1" },
    });
  }
  return internalProblem();
}
