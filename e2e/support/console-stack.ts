/** The app stack of the console's specs: the app has its console, and one listed operator. */
import type { AppStackOptions } from "./app-stack.ts";

/** The one user CITED_OPERATORS lists; every other user is a non-operator. */
export const operatorName = "olivia-operator";

/** Above the largest file the specs send (gnuplot.pdf, 1.3 MB), so a larger one can be refused cheaply. */
export const maxUploadBytes = 4 * 1024 * 1024;

export const consoleStackOptions: AppStackOptions = {
  console: { operators: [operatorName], maxUploadBytes },
};
