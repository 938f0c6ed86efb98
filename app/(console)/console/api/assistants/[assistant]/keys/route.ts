/** Creates an API key of an assistant (operators only); the answer holds the key, shown once. */
import { assistantParams, consoleRoute, readJson } from "@/lib/console/route";
import { keyCreateSchema } from "@/sdk/admin/schemas.ts";

export const POST = consoleRoute(assistantParams, async (request, { params, admin }) => {
  const { scopes, name } = await readJson(request, keyCreateSchema);
  const created = await admin.createKey(params.assistant, scopes, name || null);
  return Response.json(created, { status: 201, headers: { "Cache-Control": "no-store" } });
});
