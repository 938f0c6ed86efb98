import type { NextConfig } from "next";
import { staticSecurityHeaders } from "./lib/security-headers.ts";
import { servedOverHttps } from "./lib/supabase/project.ts";

const nextConfig: NextConfig = {
  // PGlite is WASM with its own file loading; bundling it breaks it (see ARCHITECTURE.md).
  serverExternalPackages: ["@electric-sql/pglite", "pg"],
  // `npm test` type-checks the whole repository with tsc once the build has written the route types;
  // the build need not do it twice.
  typescript: { ignoreBuildErrors: true },
  // Pages also get a Content-Security-Policy with a nonce, from proxy.ts.
  async headers() {
    const https = servedOverHttps(process.env.CITED_APP_ORIGIN ?? "");
    return [{ source: "/:path*", headers: staticSecurityHeaders(https) }];
  },
};

export default nextConfig;
