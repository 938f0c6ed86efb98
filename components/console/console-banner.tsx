/** The stripe under the header that says this is the operator's area, and who counts as an operator. */
export function ConsoleBanner({ everyoneInDevelopment }: { everyoneInDevelopment: boolean }) {
  return (
    <section
      aria-label="Operator console"
      data-testid="console-banner"
      className="border-b border-amber-700 bg-amber-100 px-3 py-2 text-sm text-amber-950 sm:px-6 dark:border-amber-500 dark:bg-amber-950 dark:text-amber-100"
    >
      {/* One line on a phone, where the page's own work needs the room. */}
      <p className="mx-auto max-w-5xl">
        <strong className="font-semibold">Operator console.</strong>{" "}
        <span className="sm:hidden">Changes here apply to every user.</span>
        <span className="hidden sm:inline">
          What you change here (assistants, their sources and keys) changes what every user of this service
          gets.
        </span>
        {everyoneInDevelopment ? (
          <span data-testid="console-everyone-note">
            {" "}
            <span className="sm:hidden">In development everyone is an operator.</span>
            <span className="hidden sm:inline">
              In development every signed-in user is an operator, because <code>CITED_OPERATORS</code> is not
              set; in production only the users it lists are.
            </span>
          </span>
        ) : null}
      </p>
    </section>
  );
}
