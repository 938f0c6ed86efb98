/** The app stack of the console's specs: the app has its console, and one listed operator. */
import type { AppStackOptions } from "./app-stack.ts";

/** The one user CITED_OPERATORS lists; every other user is a non-operator. */
export const operatorName = "olivia-operator";

export const consoleStackOptions: AppStackOptions = { console: { operators: [operatorName] } };
