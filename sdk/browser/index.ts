/** sdk/browser: the browser's client of the host endpoint, and the endpoint's wire schemas. No secrets here. */

export {
  type AskOptions,
  type BrowserPdfSlice,
  createServiceBrowserClient,
  type PdfOptions,
  type RagOptions,
  type RequestOptions,
  type ServiceBrowserClient,
  type ServiceBrowserClientOptions,
} from "./create-service-browser-client.ts";

export { readUpdates } from "./read-updates.ts";
