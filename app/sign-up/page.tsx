import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import { SignUpForm } from "@/components/sign-up-form";
import { Welcome } from "@/components/welcome";
import { currentUser } from "@/lib/auth";
import { settingsProblem, supabaseProject } from "@/lib/env";

export const metadata: Metadata = { title: "Create an account · Cited" };

/** Supabase mode only: the development sign-in has no accounts to create, so it leads to the sign-in. */
export default async function SignUpPage() {
  await connection();
  if (settingsProblem()) redirect("/");
  if (supabaseProject() === null) redirect("/sign-in");
  if (await currentUser()) redirect("/chat");
  return (
    <Welcome>
      <SignUpForm />
    </Welcome>
  );
}
