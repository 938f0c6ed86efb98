/** A setting that is missing or malformed, named so that the person starting the app can fix it. */
export class EnvironmentError extends Error {
  override readonly name = "EnvironmentError";
}
