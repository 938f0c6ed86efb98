/** Creates an assistant (operators only). */
import { consoleRoute, noParams, readJson } from "@/lib/console/route";
import { assistantCreateSchema } from "@/sdk/admin/schemas.ts";

export const POST = consoleRoute(noParams, async (request, { admin }) => {
  const { name } = await readJson(request, assistantCreateSchema);
  return Response.json(await admin.createAssistant(name), { status: 201 });
});
