/**
 * What `cka` says when an admin command finds no token, no service, or a service that refuses its token: the
 * URL and data folder it tried, and the settings that point it at a service started elsewhere.
 */
import { ApiConnectionError, AuthenticationError } from "../../sdk/core/index.ts";
import type { ResolvedConnection } from "./admin-client.ts";

const pointElsewhere =
  "A service started with `cka serve --port PORT --data DIR` is reached with --url http://127.0.0.1:PORT --data DIR (or CKA_URL and CKA_DATA)";
const giveToken = "or pass its admin token with --admin-token or CKA_ADMIN_TOKEN";

export function noTokenMessage(url: string, dataDir: string): string {
  return `no admin token for ${url}: none given with --admin-token or CKA_ADMIN_TOKEN, and the data folder ${dataDir} holds no secrets.json. ${pointElsewhere}; ${giveToken}.`;
}

function tokenOrigin(connection: ResolvedConnection): string {
  if (connection.tokenSource === "data folder") return `kept in the data folder ${connection.dataDir}`;
  return `given with ${connection.tokenSource}`;
}

/** The message for a failed admin call, or null when the service's own words say it (a missing assistant, a bad name). */
export function connectionFailureMessage(error: unknown, connection: ResolvedConnection): string | null {
  if (ApiConnectionError.isInstance(error))
    return `${error.message} (cka read the admin token ${tokenOrigin(connection)}); is \`cka serve\` running there? ${pointElsewhere}.`;
  if (AuthenticationError.isInstance(error))
    return `the service at ${connection.url} refused the admin token ${tokenOrigin(connection)} (${error.problem?.detail ?? error.message}). ${pointElsewhere}; ${giveToken}.`;
  return null;
}
