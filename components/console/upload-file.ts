/**
 * Sends one file to the app's upload route with XMLHttpRequest, the one browser API that reports
 * upload progress; one request per file, so each file has its own progress and outcome.
 */

import { type DocumentRecord, documentListSchema } from "@/sdk/admin/schemas.ts";
import { ApiConnectionError, apiErrorFrom } from "@/sdk/core/index.ts";
import { consoleApiPath } from "./console-api";

function responseHeaders(request: XMLHttpRequest): Headers {
  const headers = new Headers();
  for (const line of request
    .getAllResponseHeaders()
    .trim()
    .split(/[\r\n]+/)) {
    const separator = line.indexOf(":");
    if (separator > 0) headers.append(line.slice(0, separator).trim(), line.slice(separator + 1).trim());
  }
  return headers;
}

/** The documents the service made of the file (one), or a typed error with its request id. */
export function uploadFile(
  assistantId: string,
  file: File,
  datasource: string,
  onProgress: (sentBytes: number, totalBytes: number) => void,
): Promise<DocumentRecord[]> {
  const request = new XMLHttpRequest();
  return new Promise<DocumentRecord[]>((resolve, reject) => {
    request.open("POST", `${consoleApiPath}/assistants/${encodeURIComponent(assistantId)}/documents`);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total);
    };
    request.onload = () => {
      if (request.status === 202) {
        try {
          resolve(documentListSchema.parse(JSON.parse(request.responseText)).documents);
        } catch (error) {
          reject(error);
        }
        return;
      }
      reject(apiErrorFrom(request.status, request.responseText, responseHeaders(request)));
    };
    request.onerror = () => reject(new ApiConnectionError("The upload was cut off before the app answered"));
    const form = new FormData();
    // The field before the file: the service reads the datasource's name before the file's bytes.
    form.append("datasource", datasource);
    form.append("files", file, file.name);
    request.send(form);
  });
}
