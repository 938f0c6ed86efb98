/** The fields and messages the Supabase sign-in and sign-up forms share, in the sign-in card's look. */
import type { AccountField, AccountFormState } from "@/app/auth/account-form";

const inputClassName =
  "rounded-lg border border-stone-400 bg-white px-3 py-2 text-base font-normal dark:border-stone-600 dark:bg-stone-950";

const feedbackId = "account-form-feedback";

/**
 * Points a field at its hint and, while the error below is about this field, at that error, for
 * screen readers. An error about no field (a rate limit, an outage) marks no field invalid.
 */
function describedBy(state: AccountFormState, field: AccountField, hintId?: string) {
  const invalid = state.error !== null && state.invalidFields.includes(field);
  const ids = [hintId, invalid ? feedbackId : undefined].filter((id) => id !== undefined);
  return {
    "aria-invalid": invalid ? true : undefined,
    "aria-describedby": ids.length > 0 ? ids.join(" ") : undefined,
  } as const;
}

export function EmailField({ state }: { state: AccountFormState }) {
  return (
    <label className="flex flex-col gap-1 text-sm font-medium">
      Email
      <input
        name="email"
        type="email"
        required
        defaultValue={state.email}
        autoComplete="email"
        inputMode="email"
        spellCheck={false}
        className={inputClassName}
        {...describedBy(state, "email")}
      />
    </label>
  );
}

const passwordHintId = "account-form-password-hint";

export function PasswordField({
  state,
  autoComplete,
  minLength,
  hint,
}: {
  state: AccountFormState;
  autoComplete: "current-password" | "new-password";
  minLength?: number;
  hint?: string;
}) {
  return (
    <label className="flex flex-col gap-1 text-sm font-medium">
      Password
      <input
        name="password"
        type="password"
        required
        minLength={minLength}
        autoComplete={autoComplete}
        className={inputClassName}
        {...describedBy(state, "password", hint ? passwordHintId : undefined)}
      />
      {hint ? (
        <span id={passwordHintId} className="font-normal text-stone-600 dark:text-stone-400">
          {hint}
        </span>
      ) : null}
    </label>
  );
}

/** The error (announced at once) or the notice (announced politely) of the last attempt. */
export function AccountFeedback({ state }: { state: AccountFormState }) {
  if (state.error) {
    return (
      <p id={feedbackId} role="alert" className="text-sm text-red-700 dark:text-red-400">
        {state.error}
      </p>
    );
  }
  if (state.notice) {
    return (
      <p
        role="status"
        data-testid="account-notice"
        className="rounded-lg border border-blue-700 bg-blue-50 p-3 text-sm text-blue-950 dark:border-blue-400 dark:bg-blue-950 dark:text-blue-50"
      >
        {state.notice}
      </p>
    );
  }
  return null;
}
