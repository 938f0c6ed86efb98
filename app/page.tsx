import { redirect } from "next/navigation";
import { connection } from "next/server";
import { currentUser } from "@/lib/auth";

/** The front door: the chat for a signed-in user, the sign-in page for everyone else. */
export default async function HomePage() {
  await connection();
  redirect((await currentUser()) ? "/chat" : "/sign-in");
}
