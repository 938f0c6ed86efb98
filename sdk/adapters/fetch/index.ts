/** Browser adapter: a `fetch` for createServiceBrowserClient that carries and renews the user's access token. */
export {
  type AccessTokenSource,
  type AuthenticatedFetchOptions,
  createAuthenticatedFetch,
} from "./create-authenticated-fetch.ts";
