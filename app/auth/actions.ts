"use server";
/**
 * Supabase Auth's sign-in and sign-up, run on the server so the session lands in cookies that
 * pages and the proxy read. Only in Supabase mode; the development sign-in has its own actions.
 */
import type { AuthError } from "@supabase/supabase-js";
import { redirect } from "next/navigation";
import { z } from "zod";
import { serverEnvironment, supabaseProject } from "@/lib/env";
import { authProblem, authProblemFields } from "@/lib/supabase/auth-problem";
import { createSupabaseServerClient } from "@/lib/supabase/server";
import { type AccountField, type AccountFormState, minimumPasswordLength } from "./account-form";

const emailSchema = z.email("Type your email address, like name@example.com.");

const signInSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("password"),
    email: emailSchema,
    password: z.string().min(1, "Type your password."),
  }),
  z.object({ intent: z.literal("link"), email: emailSchema }),
]);

const signUpSchema = z.object({
  email: emailSchema,
  password: z
    .string()
    .min(minimumPasswordLength, `Choose a password of at least ${minimumPasswordLength} characters.`),
});

/** The form's fields checked by `schema`, or the state that names the first thing to fix. */
function readForm<Fields>(
  schema: z.ZodType<Fields>,
  form: FormData,
): { fields: Fields; email: string } | { state: AccountFormState } {
  const entries = Object.fromEntries(
    [...form.entries()].flatMap(([name, value]) => (typeof value === "string" ? [[name, value]] : [])),
  );
  const email = entries.email ?? "";
  const parsed = schema.safeParse(entries);
  if (parsed.success) return { fields: parsed.data, email };
  const issue = parsed.error.issues[0];
  const field = issue?.path[0];
  const invalidFields: AccountField[] = field === "email" || field === "password" ? [field] : [];
  return { state: { error: issue?.message ?? "Check the form.", invalidFields, notice: null, email } };
}

async function supabaseClient() {
  const project = supabaseProject();
  if (project === null) throw new Error("Supabase Auth is not configured on this server");
  return createSupabaseServerClient(project);
}

/** Where an emailed link brings the person back: this app's confirm route, then the chat. */
function confirmUrl(): string {
  const url = new URL("/auth/confirm", serverEnvironment().CITED_APP_ORIGIN);
  url.searchParams.set("next", "/chat");
  return url.toString();
}

function failed(error: AuthError, email: string, during: string): AccountFormState {
  const problem = authProblem(error);
  if (problem === null) console.error(during, error);
  return {
    error: problem ?? "Something went wrong on our side. Try again in a moment.",
    invalidFields: authProblemFields(error),
    notice: null,
    email,
  };
}

/** Email and password (intent `password`), or a sign-in link sent by email (intent `link`). */
export async function signInWithSupabase(
  _previous: AccountFormState,
  form: FormData,
): Promise<AccountFormState> {
  const read = readForm(signInSchema, form);
  if ("state" in read) return read.state;
  const { fields, email } = read;
  const supabase = await supabaseClient();
  if (fields.intent === "link") {
    const { error } = await supabase.auth.signInWithOtp({
      email: fields.email,
      options: { emailRedirectTo: confirmUrl() },
    });
    if (error) return failed(error, email, "sign-in link");
    return {
      error: null,
      invalidFields: [],
      notice: `Check your inbox: a sign-in link is on its way to ${fields.email}. It works once.`,
      email,
    };
  }
  const { error } = await supabase.auth.signInWithPassword({
    email: fields.email,
    password: fields.password,
  });
  if (error) return failed(error, email, "sign-in");
  redirect("/chat");
}

export async function signUpWithSupabase(
  _previous: AccountFormState,
  form: FormData,
): Promise<AccountFormState> {
  const read = readForm(signUpSchema, form);
  if ("state" in read) return read.state;
  const { fields, email } = read;
  const supabase = await supabaseClient();
  const { data, error } = await supabase.auth.signUp({
    email: fields.email,
    password: fields.password,
    options: { emailRedirectTo: confirmUrl() },
  });
  if (error) return failed(error, email, "sign-up");
  // A project that asks new users to confirm their address gives no session until they have.
  if (data.session === null) {
    return {
      error: null,
      invalidFields: [],
      notice: `Almost there: follow the link we sent to ${fields.email} to confirm it, then you are signed in.`,
      email,
    };
  }
  redirect("/chat");
}
