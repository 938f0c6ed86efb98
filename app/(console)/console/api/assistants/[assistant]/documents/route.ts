/**
 * An assistant's documents (operators only). GET passes the service's long-poll through: with
 * `If-None-Match` and `Prefer: wait=N` it answers when the listing changes, or 304. POST passes a
 * multipart upload on as a stream, never holding the file.
 */
import { assistantParams, consoleRoute } from "@/lib/console/route";
import { HttpProblem } from "@/sdk/core/index.ts";

/** Below the 30 s the service allows, and below the 60 s at which proxies commonly cut idle requests. */
const maxWaitSeconds = 25;

export const GET = consoleRoute(assistantParams, async (request, { params, admin }) => {
  const asked = Number(/(?:^|[;,\s])wait\s*=\s*(\d+)/i.exec(request.headers.get("Prefer") ?? "")?.[1] ?? 0);
  const watched = await admin.watchDocuments(params.assistant, {
    etag: request.headers.get("If-None-Match"),
    waitSeconds: Math.min(asked, maxWaitSeconds),
    signal: request.signal,
  });
  const headers: Record<string, string> = {
    "Cache-Control": "no-store",
    ...(watched.etag ? { ETag: watched.etag } : {}),
  };
  if (!watched.changed) return new Response(null, { status: 304, headers });
  return Response.json({ documents: watched.documents }, { headers });
});

export const POST = consoleRoute(assistantParams, async (request, { params, admin }) => {
  const contentType = request.headers.get("Content-Type") ?? "";
  if (!/^multipart\/form-data;/i.test(contentType) || request.body === null) {
    throw new HttpProblem(
      400,
      "invalid_request",
      "Upload files as multipart/form-data in the field `files`.",
    );
  }
  const documents = await admin.uploadDocuments(params.assistant, request.body, {
    contentType,
    signal: request.signal,
  });
  return Response.json({ documents }, { status: 202 });
});
