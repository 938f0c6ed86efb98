import { redirect } from "next/navigation";
import { connection } from "next/server";
import { SetupNeeded } from "@/components/setup-needed";
import { currentUser } from "@/lib/auth";
import { settingsProblem } from "@/lib/env";

/** The front door: the chat for a signed-in user, the sign-in page for everyone else, setup help before settings. */
export default async function HomePage() {
  await connection();
  const problem = settingsProblem();
  if (problem) return <SetupNeeded problem={problem} />;
  redirect((await currentUser()) ? "/chat" : "/sign-in");
}
