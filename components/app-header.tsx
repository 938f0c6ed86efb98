import Link from "next/link";
import { NewChatLink } from "./new-chat-link";
import { SignOutButton } from "./sign-out-button";

export interface AppHeaderProps {
  userName: string;
  authScope: string;
  /** Operators get a link to the console; nobody else learns that it exists. */
  consoleLink?: boolean;
}

export function AppHeader({ userName, authScope, consoleLink = false }: AppHeaderProps) {
  return (
    <header className="flex items-center gap-2 border-b border-stone-300 bg-white px-3 py-2 sm:gap-4 sm:px-4 dark:border-stone-800 dark:bg-stone-900">
      <NewChatLink className="text-lg font-semibold">Cited</NewChatLink>
      <nav aria-label="Main" className="flex gap-1 text-sm sm:gap-3">
        {/* On a phone an operator's header has one more link; this second link to the chat (the name is one) makes room. */}
        <NewChatLink
          className={`rounded px-2 py-1 hover:bg-stone-100 dark:hover:bg-stone-800 ${consoleLink ? "hidden sm:inline" : ""}`}
        >
          Chat
        </NewChatLink>
        <Link href="/search" className="rounded px-2 py-1 hover:bg-stone-100 dark:hover:bg-stone-800">
          Search
        </Link>
        {consoleLink ? (
          <Link
            href="/console"
            data-testid="console-link"
            className="rounded px-2 py-1 hover:bg-stone-100 dark:hover:bg-stone-800"
          >
            Console
          </Link>
        ) : null}
      </nav>
      <div className="ml-auto flex min-w-0 items-center gap-2 text-sm sm:gap-3">
        <span className="hidden text-stone-600 sm:inline dark:text-stone-400">Signed in as</span>
        <span data-testid="user-name" className="min-w-0 max-w-[6rem] truncate font-medium sm:max-w-xs">
          {userName}
        </span>
        <SignOutButton authScope={authScope} />
      </div>
    </header>
  );
}
