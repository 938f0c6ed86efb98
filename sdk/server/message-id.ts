/** Message identifiers in the contract's `msg_…` shape, for user messages and answers the service did not name. */

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/**
 * A new random `msg_` identifier (20 characters after the prefix, ~119 bits).
 *
 * @example
 * newMessageId(); // "msg_q8ZL0vXc3T9mBn2Rk7Pw"
 */
export function newMessageId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  let id = "msg_";
  // 256 is not a multiple of 62, so a few characters come slightly more often: harmless for an id.
  for (const byte of bytes) id += alphabet[byte % alphabet.length];
  return id;
}
