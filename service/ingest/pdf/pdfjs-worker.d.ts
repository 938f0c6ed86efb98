/** pdfjs ships no types for its worker module; this is the one entry point the service uses. */
declare module "pdfjs-dist/legacy/build/pdf.worker.mjs" {
  import type { PdfjsPort } from "./pdfjs-port.ts";

  export const WorkerMessageHandler: {
    /** Serves pdfjs's API on the other end of `port`, as a worker script does. */
    initializeFromPort(port: PdfjsPort): void;
  };
}
