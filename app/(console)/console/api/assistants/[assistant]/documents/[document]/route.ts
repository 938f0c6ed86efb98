/** Deletes one document of an assistant (operators only): it leaves the index at once. */
import { z } from "zod";
import { consoleRoute } from "@/lib/console/route";
import { assistantIdSchema, documentIdSchema } from "@/sdk/core/wire.ts";

const params = z.object({ assistant: assistantIdSchema, document: documentIdSchema });

export const DELETE = consoleRoute(params, async (_request, { params, admin }) => {
  await admin.deleteDocument(params.assistant, params.document);
  return new Response(null, { status: 204 });
});
