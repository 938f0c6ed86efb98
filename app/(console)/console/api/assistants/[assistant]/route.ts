/** Renames or deletes an assistant (operators only). */
import { assistantParams, consoleRoute, readJson } from "@/lib/console/route";
import { assistantRenameSchema } from "@/sdk/admin/schemas.ts";

export const PATCH = consoleRoute(assistantParams, async (request, { params, admin }) => {
  const { name } = await readJson(request, assistantRenameSchema);
  return Response.json(await admin.renameAssistant(params.assistant, name));
});

export const DELETE = consoleRoute(assistantParams, async (_request, { params, admin }) => {
  await admin.deleteAssistant(params.assistant);
  return new Response(null, { status: 204 });
});
