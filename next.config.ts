import type { NextConfig } from "next";
import { staticSecurityHeaders } from "./lib/security-headers.ts";

const nextConfig: NextConfig = {
  // PGlite is WASM with its own file loading; bundling it breaks it (see ARCHITECTURE.md).
  serverExternalPackages: ["@electric-sql/pglite", "pg"],
  // `npm test` type-checks the whole repository with tsc once the build has written the route types;
  // the build need not do it twice.
  typescript: { ignoreBuildErrors: true },
  // Read at build time. Pages also get a Content-Security-Policy with a nonce and, over https,
  // Strict-Transport-Security, from proxy.ts when the server runs.
  async headers() {
    return [{ source: "/:path*", headers: [...staticSecurityHeaders] }];
  },
};

export default nextConfig;
