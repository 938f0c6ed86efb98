/** What the Supabase sign-in and sign-up forms and their server actions agree on. */

export interface AccountFormState {
  error: string | null;
  /** What happened when nothing is wrong but the person has to look at their inbox. */
  notice: string | null;
  email: string;
}

export const initialAccountFormState: AccountFormState = { error: null, notice: null, email: "" };

/** Supabase Auth's default minimum; a project may ask for more, and then says so itself. */
export const minimumPasswordLength = 6;
