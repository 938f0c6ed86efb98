/** The Try tab's route to the service (operators only): the SDK handler with the assistant's trial key. */
import { z } from "zod";
import { consoleRoute } from "@/lib/console/route";
import { handleTrialRequest } from "@/lib/console/trial";
import { assistantIdSchema } from "@/sdk/core/wire.ts";

const params = z.object({ assistant: assistantIdSchema, path: z.array(z.string()) });

const handle = consoleRoute(params, (request, context) =>
  handleTrialRequest(context.params.assistant, request),
);

export const GET = handle;
export const POST = handle;
export const PATCH = handle;
export const DELETE = handle;
