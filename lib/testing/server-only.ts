/** Stands in for the `server-only` guard in Vitest, which runs outside Next.js's react-server build. */
export {};
