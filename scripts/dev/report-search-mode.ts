/** Prints how the service will search once its embedding model is settled: fetched and loaded, or absent and why. */
import type { AdminClient } from "../../sdk/admin/index.ts";

export async function reportSearchMode(
  admin: Pick<AdminClient, "status">,
  say: (line: string) => void,
  options: { timeoutMs: number },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  let shown = "";
  for (;;) {
    const status = await admin.status();
    if (status.search === "semantic") return say(`searching by meaning and words (${status.detail})`);
    if (status.search === "lexical") return say(`searching by words only: ${status.detail}`);
    if (status.detail !== shown) say(`embedding model: ${status.detail}`);
    shown = status.detail;
    if (Date.now() > deadline)
      return say("the embedding model is still loading; answers use words until it is ready");
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
