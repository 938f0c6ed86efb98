/**
 * The documents an assistant answers from, for the empty chat to name. Read from the service at most
 * once a minute per assistant; when the service cannot say, the chat goes on without the list. Pages pass
 * the promise on unawaited, so the chat never waits for it.
 */
import "server-only";
import type { SourceList } from "@/sdk/core/wire.ts";
import type { ServiceClient } from "@/sdk/server/index.ts";

const freshForMs = 60_000;
const read = new Map<string, { at: number; sources: SourceList }>();

export async function assistantSources(
  assistantId: string,
  client: () => ServiceClient | Promise<ServiceClient>,
): Promise<SourceList | null> {
  const cached = read.get(assistantId);
  if (cached && Date.now() - cached.at < freshForMs) return cached.sources;
  try {
    const sources = await (await client()).sources({ signal: AbortSignal.timeout(5_000) });
    read.set(assistantId, { at: Date.now(), sources });
    return sources;
  } catch (error) {
    // The list is a hint: a chat whose service is down says so when the person asks.
    console.error(`sources of ${assistantId}:`, error);
    return cached?.sources ?? null;
  }
}
