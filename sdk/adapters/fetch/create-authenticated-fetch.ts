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
  /**
   * The host endpoint, as given to createServiceBrowserClient (`/api/cited`, or an absolute URL).
   * Only requests to its origin and under its path carry the token; others go out untouched.
   */
  endpoint: string;
  /** What a relative endpoint or request URL is resolved against. Default: the page's location. */
  base?: string | URL;
  /** Sends the requests. Default: the global fetch. */
  fetch?: typeof fetch;
}

function withBearer(request: Request, token: string | null): Request {
  if (token === null) return request;
  const headers = new Headers(request.headers);
  headers.set("Authorization", `Bearer ${token}`);
  return new Request(request, { headers });
}

/** Whether `url` is the endpoint or under it: same origin, and its path or a path below it. */
function endpointMatcher(endpoint: URL): (url: URL) => boolean {
  const path = endpoint.pathname.replace(/\/+$/, "");
  return (url) =>
    url.origin === endpoint.origin && (url.pathname === path || url.pathname.startsWith(`${path}/`));
}

function pageLocation(): string | undefined {
  return typeof location === "undefined" ? undefined : location.href;
}

/**
 * Creates the `fetch`. Calls to `endpoint` carry `Authorization: Bearer <token>`; any other URL (a
 * third party, another path of the same site) is sent as it was given, without the token. On a 401
 * from the endpoint it asks the source for a new token and sends the request again, once; a second
 * 401 is returned as it is, and so is the first when there is no session or it cannot be renewed.
 * Requests refused with the same token share one renewal, even when their 401s arrive after it
 * finished, so a page of parallel calls makes one refresh, not a storm. A host that refuses even the
 * token it just renewed (say its audience is misconfigured) gets no more renewals for that token, so
 * each later call does not spend a refresh token; a token the source hands out otherwise (a new
 * sign-in, its own refresh) is renewed as usual. The request body is kept for the retry (a copy is
 * held until the first answer).
 *
 * @example
 * const supabase = createBrowserClient(url, publishableKey);
 * const cited = createServiceBrowserClient({
 *   endpoint: "/api/cited",
 *   fetch: createAuthenticatedFetch(supabaseAccessTokenSource(supabase), { endpoint: "/api/cited" }),
 * });
 */
export function createAuthenticatedFetch(
  source: AccessTokenSource,
  options: AuthenticatedFetchOptions,
): typeof fetch {
  const send = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const base = options.base ?? pageLocation();
  if (base === undefined && !URL.canParse(options.endpoint)) {
    throw new TypeError(`endpoint ${options.endpoint} is relative: pass base, or call this in a page`);
  }
  const isEndpoint = endpointMatcher(new URL(options.endpoint, base));
  let lastRenewal: { refused: string; renewed: Promise<string | null> } | null = null;
  /** A token the host refused right after the adapter renewed to it: it is not renewed again. */
  let refusedWhenFresh: string | null = null;

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
    const url = new URL(input instanceof Request ? input.url : input, base);
    // Untouched: a Request given here is not even read, so its body is still there to send.
    if (!isEndpoint(url)) return send(input, init);
    const request = new Request(input instanceof Request ? input : url, init);
    // A body stream can be read once: keep a copy for the retry before the first send reads it.
    const copy = request.clone();
    const token = await source.getAccessToken();
    const first = await send(withBearer(request, token));
    if (first.status !== 401 || token === null || token === refusedWhenFresh) return first;
    const renewed = await renewalAfter(token);
    if (renewed === null) return first;
    await first.body?.cancel();
    const second = await send(withBearer(copy, renewed));
    if (second.status === 401) refusedWhenFresh = renewed;
    return second;
  };
}
