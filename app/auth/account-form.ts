/** What the Supabase sign-in and sign-up forms and their server actions agree on. */

/** A field of the forms an error can be about. */
export type AccountField = "email" | "password";

export interface AccountFormState {
  error: string | null;
  /** The fields `error` is about, marked invalid; none for a rate limit or an outage. */
  invalidFields: AccountField[];
  /** What happened when nothing is wrong but the person has to look at their inbox. */
  notice: string | null;
  email: string;
}

export const initialAccountFormState: AccountFormState = {
  error: null,
  invalidFields: [],
  notice: null,
  email: "",
};

/** Supabase Auth's default minimum; a project may ask for more, and then says so itself. */
export const minimumPasswordLength = 6;
