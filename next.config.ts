import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite is WASM with its own file loading; bundling it breaks it (see ARCHITECTURE.md).
  serverExternalPackages: ["@electric-sql/pglite", "pg"],
  // `npm test` type-checks the whole repository with tsc once the build has written the route types;
  // the build need not do it twice.
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
