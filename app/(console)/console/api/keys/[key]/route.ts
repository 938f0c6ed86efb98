/** Revokes an API key (operators only): its next request is answered 401. */
import { z } from "zod";
import { consoleRoute } from "@/lib/console/route";
import { keyIdSchema } from "@/sdk/core/wire.ts";

export const DELETE = consoleRoute(z.object({ key: keyIdSchema }), async (_request, { params, admin }) => {
  await admin.revokeKey(params.key);
  return new Response(null, { status: 204 });
});
