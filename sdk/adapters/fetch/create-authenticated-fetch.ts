/**
 * A `fetch` for createServiceBrowserClient that sends the user's access token as a bearer header and,
 * when the host refuses it with 401, renews it once — one renewal for all requests refused together.
 */

/** Where the access token comes from: the auth library's session (see supabaseAccessTokenSource). */
export interface AccessTokenSource {
  /** The current access token, or null when nobody is signed in. */
  getAccessToken(): Promise<string | null>;
  /** A new access token after the host refused the current one, or null when the session cannot be renewed. */
  refreshAccessToken(): Promise<string | null>;
}

export interface AuthenticatedFetchOptions {
  /** Sends the requests. Default: the global fetch. */
  fetch?: typeof fetch;
}

function withBearer(request: Request, token: string | null): Request {
  if (token === null) return request;
  const headers = new Headers(request.headers);
  headers.set("Authorization", `Bearer ${token}`);
  return new Request(request, { headers });
}

/**
 * Creates the `fetch`. Every call carries `Authorization: Bearer <token>` (hand it only to the client of
 * your own host endpoint: it sends the token wherever it is called). On a 401 it asks the source for a
 * new token and sends the request again, once; a second 401 is returned as it is, and so is the first
 * when there is no session or it cannot be renewed. Requests refused with the same token share one
 * renewal, even when their 401s arrive after it finished, so a page of parallel calls makes one
 * refresh, not a storm. The request body is kept for the retry (a copy is held until the first answer).
 *
 * @example
 * const supabase = createBrowserClient(url, publishableKey);
 * const cited = createServiceBrowserClient({
 *   endpoint: "/api/cited",
 *   fetch: createAuthenticatedFetch(supabaseAccessTokenSource(supabase)),
 * });
 */
export function createAuthenticatedFetch(
  source: AccessTokenSource,
  options: AuthenticatedFetchOptions = {},
): typeof fetch {
  const send = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  let lastRenewal: { refused: string; renewed: Promise<string | null> } | null = null;

  /** The token to retry with after `refused` was refused: one renewal per refused token. */
  function renewalAfter(refused: string): Promise<string | null> {
    if (lastRenewal?.refused === refused) return lastRenewal.renewed;
    const renewal = { refused, renewed: source.refreshAccessToken() };
    lastRenewal = renewal;
    // A renewal that failed (e.g. offline) may be tried again by the next refused request; its callers
    // still get the failure through `renewed`.
    renewal.renewed.catch(() => {
      if (lastRenewal === renewal) lastRenewal = null;
    });
    return renewal.renewed;
  }

  return async (input, init) => {
    const request = new Request(input, init);
    // A body stream can be read once: keep a copy for the retry before the first send reads it.
    const copy = request.clone();
    const token = await source.getAccessToken();
    const first = await send(withBearer(request, token));
    if (first.status !== 401 || token === null) return first;
    const renewed = await renewalAfter(token);
    if (renewed === null) return first;
    await first.body?.cancel();
    return send(withBearer(copy, renewed));
  };
}
