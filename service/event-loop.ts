/**
 * The embedded database (PGlite) answers a query without leaving the microtask queue, so a chain of awaited
 * queries and computations holds the event loop until it ends: no request is read, no response written.
 * Awaiting this lets the event loop take a turn (I/O included) before the chain goes on. Inside a transaction
 * it frees the thread, not the database: PGlite runs every other query after the transaction ends.
 */
export const turnOfEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
