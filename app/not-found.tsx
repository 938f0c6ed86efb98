/** An address the app has no page for. */
import { NotFoundMessage } from "@/components/not-found-message";

export default function NotFound() {
  return <NotFoundMessage />;
}
