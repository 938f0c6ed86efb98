/**
 * Who a verified Supabase access token says is signed in, for pages and the route handler alike.
 * Anonymous sign-ins are refused: with them switched on in the project, anyone could make a
 * session without an account and use the assistant.
 */
import { z } from "zod";

/** The claims the app relies on. */
const signedInClaimsSchema = z.object({
  sub: z.string().min(1),
  role: z.literal("authenticated"),
  email: z.string().optional(),
  is_anonymous: z.boolean().optional(),
});

/** The person of `claims` (already verified), or null when they are not someone with an account. */
export function signedInUserOf(claims: unknown): { id: string; name: string } | null {
  const parsed = signedInClaimsSchema.safeParse(claims);
  if (!parsed.success || parsed.data.is_anonymous === true) return null;
  return { id: parsed.data.sub, name: parsed.data.email ?? parsed.data.sub };
}
