import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite is WASM with its own file loading; bundling it breaks it (see ARCHITECTURE.md).
  serverExternalPackages: ["@electric-sql/pglite", "pg"],
  typedRoutes: false,
};

export default nextConfig;
