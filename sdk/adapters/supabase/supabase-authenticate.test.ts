/** Real JWTs signed by test keys (an HS256 secret; ES256 and RS256 key pairs served as a JWKS on 127.0.0.1). */
import {
  type CryptoKey,
  exportJWK,
  exportSPKI,
  generateKeyPair,
  type JSONWebKeySet,
  type JWTPayload,
  SignJWT,
} from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceHandler } from "../../server/index.ts";
import { createMemoryServiceStore } from "../../server/memory-service-store.ts";
import {
  bearerToken,
  createSupabaseAccessTokenVerifier,
  createSupabaseAuthenticate,
  type SupabaseAuthenticateOptions,
} from "./supabase-authenticate.ts";
import { type ServedHandler, serveFetchHandler } from "./testing/serve-fetch-handler.ts";

const secret = "super-secret-jwt-token-with-at-least-32-characters-long";
let es256: { privateKey: CryptoKey; publicKey: CryptoKey };
let rs256: { privateKey: CryptoKey; publicKey: CryptoKey };
let stranger: { privateKey: CryptoKey; publicKey: CryptoKey };
let jwks: JSONWebKeySet;
let project: ServedHandler;
let jwksAnswer: "keys" | "error" = "keys";
let jwksFetches = 0;
const userId = "5b1f0a52-5d3e-4d4e-9a55-0d9f3f1c2b7a";

beforeAll(async () => {
  es256 = await generateKeyPair("ES256", { extractable: true });
  rs256 = await generateKeyPair("RS256", { extractable: true });
  stranger = await generateKeyPair("ES256", { extractable: true });
  jwks = {
    keys: [
      { ...(await exportJWK(es256.publicKey)), kid: "ec-key", alg: "ES256", use: "sig" },
      { ...(await exportJWK(rs256.publicKey)), kid: "rsa-key", alg: "RS256", use: "sig" },
    ],
  };
  project = await serveFetchHandler(() => async (request) => {
    if (new URL(request.url).pathname !== "/auth/v1/.well-known/jwks.json")
      return new Response(null, { status: 404 });
    jwksFetches += 1;
    return jwksAnswer === "keys" ? Response.json(jwks) : new Response("upstream down", { status: 503 });
  });
});
afterAll(() => project.close());

const now = () => Math.floor(Date.now() / 1000);

function claims(overrides: JWTPayload = {}): JWTPayload {
  return {
    iss: `${project.url}/auth/v1`,
    aud: "authenticated",
    sub: userId,
    role: "authenticated",
    email: "ada@example.com",
    session_id: "0f6c3d1e-27c1-4e3e-8a2a-6c8f4b8f4a11",
    iat: now(),
    exp: now() + 3600,
    ...overrides,
  };
}

type Signer = "es256" | "rs256" | "hs256" | "stranger" | "no-kid";

async function sign(payload: JWTPayload, signer: Signer = "es256"): Promise<string> {
  const jwt = new SignJWT(payload);
  if (signer === "hs256")
    return jwt.setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(new TextEncoder().encode(secret));
  if (signer === "rs256")
    return jwt.setProtectedHeader({ alg: "RS256", kid: "rsa-key" }).sign(rs256.privateKey);
  if (signer === "stranger")
    return jwt.setProtectedHeader({ alg: "ES256", kid: "other-key" }).sign(stranger.privateKey);
  if (signer === "no-kid") return jwt.setProtectedHeader({ alg: "ES256" }).sign(es256.privateKey);
  return jwt.setProtectedHeader({ alg: "ES256", kid: "ec-key", typ: "JWT" }).sign(es256.privateKey);
}

function withBearer(token: string, scheme = "Bearer"): Request {
  return new Request("https://app.example/api/cited/conversations", {
    headers: { Authorization: `${scheme} ${token}` },
  });
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

describe("createSupabaseAuthenticate with the project's JWKS", () => {
  const options = (): SupabaseAuthenticateOptions => ({ supabaseUrl: project.url });

  it("maps a valid ES256 or RS256 access token to the user's id", async () => {
    const authenticate = createSupabaseAuthenticate(options());
    const user = { id: userId, externalUserId: userId };
    expect(await authenticate(withBearer(await sign(claims())))).toEqual(user);
    expect(await authenticate(withBearer(await sign(claims(), "rs256")))).toEqual(user);
  });

  it("fetches the JWKS once and keeps it for later requests", async () => {
    const authenticate = createSupabaseAuthenticate(options());
    const before = jwksFetches;
    for (let index = 0; index < 3; index += 1) {
      expect(await authenticate(withBearer(await sign(claims())))).not.toBeNull();
    }
    expect(jwksFetches - before).toBe(1);
  });

  it("refuses tokens outside their lifetime, with a few seconds' tolerance for clock skew", async () => {
    const authenticate = createSupabaseAuthenticate({ ...options(), minimumRemainingSeconds: 0 });
    expect(await authenticate(withBearer(await sign(claims({ exp: now() - 60 }))))).toBeNull();
    expect(await authenticate(withBearer(await sign(claims({ nbf: now() + 60 }))))).toBeNull();
    expect(await authenticate(withBearer(await sign(claims({ exp: now() - 2 }))))).not.toBeNull();
  });

  it("refuses a token with less than a minute left, so the browser renews it before a long ask", async () => {
    const authenticate = createSupabaseAuthenticate(options());
    expect(await authenticate(withBearer(await sign(claims({ exp: now() + 50 }))))).toBeNull();
    expect(await authenticate(withBearer(await sign(claims({ exp: now() + 70 }))))).not.toBeNull();
    const patient = createSupabaseAuthenticate({ ...options(), minimumRemainingSeconds: 300 });
    expect(await patient(withBearer(await sign(claims({ exp: now() + 240 }))))).toBeNull();
    expect(await patient(withBearer(await sign(claims({ exp: now() + 360 }))))).not.toBeNull();
    const lastSecond = createSupabaseAuthenticate({ ...options(), minimumRemainingSeconds: 0 });
    expect(await lastSecond(withBearer(await sign(claims({ exp: now() + 10 }))))).not.toBeNull();
  });

  it("refuses another audience or another project's issuer; a configured audience is honoured", async () => {
    const authenticate = createSupabaseAuthenticate(options());
    expect(await authenticate(withBearer(await sign(claims({ aud: "anon" }))))).toBeNull();
    const otherProject = claims({ iss: "https://other-project.supabase.co/auth/v1" });
    expect(await authenticate(withBearer(await sign(otherProject)))).toBeNull();
    const partner = createSupabaseAuthenticate({ ...options(), audience: "partner" });
    expect(await partner(withBearer(await sign(claims({ aud: "partner" }))))).not.toBeNull();
    expect(await partner(withBearer(await sign(claims())))).toBeNull();
  });

  it("refuses `alg: none`, a tampered payload and a tampered signature", async () => {
    const authenticate = createSupabaseAuthenticate(options());
    const unsigned = `${base64url({ alg: "none", typ: "JWT" })}.${base64url(claims())}.`;
    expect(await authenticate(withBearer(unsigned))).toBeNull();

    const [header, , signature] = (await sign(claims())).split(".");
    const otherUser = base64url(claims({ sub: "00000000-0000-0000-0000-000000000001" }));
    expect(await authenticate(withBearer(`${header}.${otherUser}.${signature}`))).toBeNull();

    const token = await sign(claims());
    const flipped = `${token.slice(0, -4)}${token.endsWith("AAAA") ? "BBBB" : "AAAA"}`;
    expect(await authenticate(withBearer(flipped))).toBeNull();
  });

  it("refuses an HS256 token signed with the public key (algorithm confusion)", async () => {
    const publicPem = await exportSPKI(es256.publicKey);
    const confused = await new SignJWT(claims())
      .setProtectedHeader({ alg: "HS256", kid: "ec-key" })
      .sign(new TextEncoder().encode(publicPem));
    expect(await createSupabaseAuthenticate(options())(withBearer(confused))).toBeNull();
    const legacyToo = createSupabaseAuthenticate({ ...options(), jwtSecret: secret });
    expect(await legacyToo(withBearer(confused))).toBeNull();
  });

  it("refuses a token signed by a key the project does not publish (unknown kid)", async () => {
    expect(
      await createSupabaseAuthenticate(options())(withBearer(await sign(claims(), "stranger"))),
    ).toBeNull();
  });

  it("refuses an ES256 token without kid while the key set holds two ES256 keys (a rotation)", async () => {
    const rotating: JSONWebKeySet = {
      keys: [
        { ...(await exportJWK(stranger.publicKey)), kid: "next-key", alg: "ES256", use: "sig" },
        { ...(await exportJWK(es256.publicKey)), kid: "ec-key", alg: "ES256", use: "sig" },
      ],
    };
    const pinned = createSupabaseAuthenticate({ supabaseUrl: project.url, jwks: rotating });
    expect(await pinned(withBearer(await sign(claims(), "no-kid")))).toBeNull();
    expect(await pinned(withBearer(await sign(claims())))).not.toBeNull();
  });

  it("refuses the anon role and a token without sub", async () => {
    const authenticate = createSupabaseAuthenticate(options());
    expect(await authenticate(withBearer(await sign(claims({ role: "anon" }))))).toBeNull();
    expect(await authenticate(withBearer(await sign(claims({ sub: undefined }))))).toBeNull();
    expect(await authenticate(withBearer(await sign(claims({ role: undefined }))))).toBeNull();
  });

  it("throws a 503 problem, rather than signing the user out, when the JWKS cannot be fetched", async () => {
    jwksAnswer = "error";
    try {
      const authenticate = createSupabaseAuthenticate(options());
      await expect(authenticate(withBearer(await sign(claims())))).rejects.toMatchObject({
        status: 503,
        code: "auth_unavailable",
        cause: expect.objectContaining({
          cause: expect.objectContaining({ message: expect.stringMatching(/200 OK/) }),
        }),
      });
    } finally {
      jwksAnswer = "keys";
    }
  });

  it("the handler answers 503 with its request id when the JWKS is unreachable, and reports it", async () => {
    const closed = await serveFetchHandler(() => async () => new Response(null));
    await closed.close();
    const reported: unknown[] = [];
    const handler = createServiceHandler({
      baseUrl: "http://service.test",
      assistantId: "asst_Test0001",
      apiKey: "sk_live_secret_key",
      allowedOrigin: "https://app.example",
      store: createMemoryServiceStore(),
      authenticate: createSupabaseAuthenticate({ supabaseUrl: closed.url }),
      onError: (error) => reported.push(error),
    });
    const token = await sign(claims({ iss: `${closed.url}/auth/v1` }));
    const response = await handler(withBearer(token));
    expect(response.status).toBe(503);
    const problem = await response.json();
    expect(problem).toMatchObject({ status: 503, code: "auth_unavailable" });
    expect(problem.request_id).toBe(response.headers.get("X-Request-ID"));
    expect(reported).toHaveLength(1);
  });

  it("fetches the JWKS with the given fetch", async () => {
    const seen: string[] = [];
    const authenticate = createSupabaseAuthenticate({
      ...options(),
      fetch: (input, init) => {
        seen.push(String(input));
        return fetch(input, init);
      },
    });
    expect(await authenticate(withBearer(await sign(claims())))).not.toBeNull();
    expect(seen).toEqual([`${project.url}/auth/v1/.well-known/jwks.json`]);
  });
});

describe("createSupabaseAuthenticate with pinned keys or a legacy JWT secret", () => {
  it("verifies against a pinned JWKS without any request", async () => {
    const before = jwksFetches;
    const authenticate = createSupabaseAuthenticate({ supabaseUrl: project.url, jwks });
    expect(await authenticate(withBearer(await sign(claims())))).toEqual({
      id: userId,
      externalUserId: userId,
    });
    expect(await authenticate(withBearer(await sign(claims(), "stranger")))).toBeNull();
    expect(jwksFetches).toBe(before);
  });

  it("verifies HS256 tokens with the project's secret, and refuses them without it", async () => {
    const token = await sign(claims(), "hs256");
    const legacy = createSupabaseAuthenticate({ supabaseUrl: project.url, jwtSecret: secret });
    expect(await legacy(withBearer(token))).toEqual({ id: userId, externalUserId: userId });
    const wrongSecret = createSupabaseAuthenticate({
      supabaseUrl: project.url,
      jwtSecret: `${secret}-rotated`,
    });
    expect(await wrongSecret(withBearer(token))).toBeNull();
    expect(
      await createSupabaseAuthenticate({ supabaseUrl: project.url, jwks })(withBearer(token)),
    ).toBeNull();
    const expired = await sign(claims({ exp: now() - 60 }), "hs256");
    expect(await legacy(withBearer(expired))).toBeNull();
  });

  it("createSupabaseAccessTokenVerifier returns the token's claims", async () => {
    const verify = createSupabaseAccessTokenVerifier({ supabaseUrl: `${project.url}/`, jwks });
    expect(await verify(await sign(claims()))).toMatchObject({
      sub: userId,
      role: "authenticated",
      email: "ada@example.com",
    });
    expect(await verify("not-a-jwt")).toBeNull();
  });
});

describe("createSupabaseAccessTokenVerifier with the project's JWKS", () => {
  it("fetches the key set once for all the tokens it checks", async () => {
    const verify = createSupabaseAccessTokenVerifier({ supabaseUrl: project.url });
    const before = jwksFetches;
    for (let index = 0; index < 3; index += 1) {
      expect(await verify(await sign(claims()))).not.toBeNull();
    }
    expect(jwksFetches - before).toBe(1);
  });
});

describe("bearerToken", () => {
  it("reads `Authorization: Bearer <token>` and nothing else", () => {
    expect(bearerToken(withBearer("abc.def.ghi"))).toBe("abc.def.ghi");
    expect(bearerToken(withBearer("abc.def.ghi", "bearer"))).toBe("abc.def.ghi");
    expect(bearerToken(new Request("https://app.example/"))).toBeNull();
    expect(bearerToken(withBearer("abc.def.ghi", "Basic"))).toBeNull();
    expect(bearerToken(withBearer("", "Bearer"))).toBeNull();
    expect(bearerToken(withBearer("abc def"))).toBeNull();
  });

  it("authenticate answers null for a missing or malformed header", async () => {
    const authenticate = createSupabaseAuthenticate({ supabaseUrl: project.url, jwks });
    const token = await sign(claims());
    expect(await authenticate(new Request("https://app.example/"))).toBeNull();
    expect(await authenticate(withBearer(token, "Token"))).toBeNull();
    expect(await authenticate(withBearer(`${token} extra`))).toBeNull();
  });
});
