/** The SDK's error base: identity by a registry-wide marker, so checks work across copies of the SDK. */

/** Property under which every SDK error lists the names of its class chain. */
const errorMarker: unique symbol = Symbol.for("cited.sdk.error");

/** A class of the SDK error family, as `isInstance` sees it. */
type CitedErrorClass<Instance extends CitedError> = (abstract new (
  ...args: never[]
) => Instance) & {
  readonly errorName: string;
};

/**
 * Base of every error the SDK throws. `instanceof` fails when a host bundles two copies of the SDK,
 * so test with `SomeError.isInstance(error)`, which reads a `Symbol.for` marker instead.
 *
 * @example
 * try {
 *   reduceAnswerText(body);
 * } catch (error) {
 *   if (CitedError.isInstance(error)) console.warn(error.name, error.message);
 *   else throw error;
 * }
 */
export class CitedError extends Error {
  /** Stable class name, kept as data because bundlers may rename classes. */
  static readonly errorName: string = "CitedError";

  readonly [errorMarker]: readonly string[];

  constructor(message: string, options?: { cause?: unknown }) {
    // An own `cause: undefined` would show up in logs and equality checks; only set a real one.
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    const names: string[] = [];
    let current: unknown = new.target;
    while (typeof current === "function" && current !== Error) {
      if (Object.hasOwn(current, "errorName")) names.push((current as CitedErrorClass<CitedError>).errorName);
      current = Object.getPrototypeOf(current);
    }
    this[errorMarker] = names;
    this.name = names[0] ?? CitedError.errorName;
  }

  /**
   * True when `error` is an instance of this class (or a subclass), from any copy of the SDK.
   *
   * @example
   * if (AnswerStreamError.isInstance(error)) console.warn(error.lineNumber);
   */
  static isInstance<Instance extends CitedError>(
    this: CitedErrorClass<Instance>,
    error: unknown,
  ): error is Instance {
    if (typeof error !== "object" || error === null || !(errorMarker in error)) return false;
    const names = (error as { [errorMarker]: unknown })[errorMarker];
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class it was called on, so each subclass checks its own name
    return Array.isArray(names) && names.includes(this.errorName);
  }
}
