/** The assistant a console page is about, from its URL segment: unknown or malformed ids are a 404. */
import "server-only";
import { notFound } from "next/navigation";
import type { Assistant } from "@/sdk/admin/schemas.ts";
import { assistantIdSchema } from "@/sdk/core/wire.ts";
import { consoleAdminClient } from "./admin-client.ts";

export async function assistantOr404(params: Promise<{ assistant: string }>): Promise<Assistant> {
  const id = assistantIdSchema.safeParse((await params).assistant);
  if (!id.success) notFound();
  const assistant = await consoleAdminClient().findAssistant(id.data);
  if (assistant === null) notFound();
  return assistant;
}
