/**
 * Supabase Auth's failures as a sentence for the person at the form: what went wrong and what to do.
 * Anything unexpected is logged in full by the caller and shown as a generic message.
 */
import { type AuthError, isAuthRetryableFetchError, isAuthWeakPasswordError } from "@supabase/supabase-js";

const messages: Partial<Record<string, string>> = {
  invalid_credentials:
    "That email and password do not match an account. Check them, or email yourself a link.",
  email_not_confirmed: "Confirm your email address first: follow the link in the email we sent you.",
  user_already_exists: "An account with this email already exists. Sign in instead.",
  email_exists: "An account with this email already exists. Sign in instead.",
  email_address_invalid: "That email address cannot receive mail. Check it for typos.",
  email_address_not_authorized: "This project only sends email to its team's addresses; ask its owner.",
  signup_disabled: "New accounts are switched off on this site.",
  otp_disabled: "Sign-in links are switched off on this site. Use your password.",
  email_provider_disabled: "Signing in with email is switched off on this site.",
  user_not_found: "There is no account with this email. Create one first.",
  user_banned: "This account is blocked. Ask the site's owner.",
  over_email_send_rate_limit: "Too many emails were sent just now. Wait a minute, then try again.",
  over_request_rate_limit: "Too many attempts just now. Wait a minute, then try again.",
  otp_expired: "That sign-in link has expired or was used already. Ask for a new one.",
};

const weakPasswordReasons: Record<string, string> = {
  length: "is too short",
  characters: "needs more kinds of characters (letters, digits, symbols)",
  pwned: "appears in known password leaks",
};

/** The form fields each failure is about; a failure not listed (rate limit, outage) is about none. */
const fieldsOf: Partial<Record<string, ("email" | "password")[]>> = {
  invalid_credentials: ["email", "password"],
  email_not_confirmed: ["email"],
  user_already_exists: ["email"],
  email_exists: ["email"],
  email_address_invalid: ["email"],
  email_address_not_authorized: ["email"],
  user_not_found: ["email"],
};

/** The fields of the form `error` is about, to mark them invalid; empty when it is about none. */
export function authProblemFields(error: AuthError): ("email" | "password")[] {
  if (isAuthWeakPasswordError(error)) return ["password"];
  return (error.code === undefined ? undefined : fieldsOf[error.code]) ?? [];
}

/** A sentence for `error`, or null when it is not one Supabase Auth is known to send (log it). */
export function authProblem(error: AuthError): string | null {
  if (isAuthRetryableFetchError(error)) {
    return "Supabase Auth is not answering right now. Try again in a moment.";
  }
  if (isAuthWeakPasswordError(error)) {
    const reasons = error.reasons.map((reason) => weakPasswordReasons[reason] ?? reason);
    return `Choose a stronger password: this one ${reasons.join(" and ") || "is too weak"}.`;
  }
  return (error.code === undefined ? undefined : messages[error.code]) ?? null;
}
