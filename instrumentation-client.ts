/**
 * Runs in the browser before the app's code: the pages' Content-Security-Policy forbids code from
 * strings, so zod parses without compiling its parsers (else its first parse tries, and the browser
 * reports the refusal).
 */
import { z } from "zod";

z.config({ jitless: true });
