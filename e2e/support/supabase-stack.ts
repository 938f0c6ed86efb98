/**
 * The app in Supabase mode for end-to-end tests: a Supabase stand-in (GoTrue, and PostgREST's RPC
 * on a PGlite that holds what a Supabase project's database would: supabase/local-platform.sql and
 * every migration), and the app stack (service, proxy, `next start`) pointed at it through
 * SUPABASE_URL and SUPABASE_PUBLISHABLE_KEY, with no development session secret at all.
 */
import { PGlite } from "@electric-sql/pglite";
import { z } from "zod";
import { createPostgrestStandIn } from "../../sdk/adapters/supabase/testing/postgrest-stand-in.ts";
import {
  type SupabaseStandIn,
  startSupabaseStandIn,
} from "../../sdk/adapters/supabase/testing/supabase-stand-in.ts";
import { inMemoryPgliteOptions } from "../../service/testing/pglite-template.ts";
import { migrate } from "../../supabase/testing/supabase-database.ts";
import { type AppStack, startAppStack } from "./app-stack.ts";

const sessionSchema = z.object({ access_token: z.string().min(1) });

/**
 * A legacy project's JWT secret, set so tests can show it never reaches a browser. The stand-in
 * signs ES256, and with a secret set the app still checks ES256 tokens against the project's JWKS
 * (the secret only ever verifies HS256), so signing in works as without it.
 */
export const legacyJwtSecret = "e2e-legacy-jwt-secret-that-must-never-reach-a-browser";

export interface SupabaseAppStack {
  readonly app: AppStack;
  readonly supabase: SupabaseStandIn;
  /** A fresh access token of a user, as the browser's Supabase client would hold it. */
  accessToken(email: string, password: string): Promise<string>;
  stop(): Promise<void>;
}

export interface SupabaseAppStackOptions {
  /** How long the stand-in's access tokens live. Default 3600 seconds, as on a hosted project. */
  accessTokenLifetimeSeconds?: number;
}

export async function startSupabaseAppStack(
  options: SupabaseAppStackOptions = {},
): Promise<SupabaseAppStack> {
  const database = await PGlite.create(inMemoryPgliteOptions());
  let supabase: SupabaseStandIn | undefined;
  let app: AppStack | undefined;
  const stop = async () => {
    await app?.stop();
    await supabase?.close();
    await database.close();
  };
  try {
    // `migrate` sends whole scripts and transaction statements, which PGlite's exec runs as they are.
    await migrate({
      query: async (sql) => {
        await database.exec(sql);
        return { rows: [], affected: 0 };
      },
      close: () => database.close(),
    });
    supabase = await startSupabaseStandIn({ ...options, rest: createPostgrestStandIn(database) });
    app = await startAppStack({
      env: {
        SUPABASE_URL: supabase.url,
        SUPABASE_PUBLISHABLE_KEY: supabase.publishableKey,
        SUPABASE_JWT_SECRET: legacyJwtSecret,
        // Not needed in Supabase mode, and switched off to show it.
        CITED_SESSION_SECRET: "",
        CITED_DEV_SIGN_IN: "",
      },
    });
    const project = supabase;
    return {
      app,
      supabase: project,
      async accessToken(email, password) {
        const response = await fetch(`${project.url}/auth/v1/token?grant_type=password`, {
          method: "POST",
          headers: { apikey: project.publishableKey, "Content-Type": "application/json" },
          body: JSON.stringify({ email, password }),
        });
        if (!response.ok)
          throw new Error(`no access token for ${email}: ${response.status} ${await response.text()}`);
        return sessionSchema.parse(await response.json()).access_token;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
