/** An address behind sign-in with nothing at it (an unknown conversation): shown under the header. */
import { NotFoundMessage } from "@/components/not-found-message";

export default function SignedInNotFound() {
  return <NotFoundMessage />;
}
