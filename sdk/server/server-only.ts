/** The guard of everything that holds the API key: it must never run in a browser bundle. */

/**
 * Throws when called in a browser, where an API key would be readable by anyone (the same
 * refusal as openai-node's client). `what` names the caller in the message.
 *
 * @example
 * assertServerRuntime("createServiceClient");
 */
export function assertServerRuntime(what: string): void {
  if (typeof window !== "undefined") {
    throw new Error(
      `${what} holds the service API key and must run on the server only; use createServiceBrowserClient in the browser.`,
    );
  }
}
