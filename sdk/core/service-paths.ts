/**
 * The service's paths, written once: the templates the OpenAPI document shows (`{name}`), the patterns its
 * router matches (`:name`), and concrete paths with their parts encoded, for clients and tests.
 */

/** The public API of the interface spec, and what an assistant answers from. */
export const publicPathTemplates = {
  ask: "/external/v1/assistants/{assistant}/sessions/{external_session}/ask",
  rag: "/external/v1/assistants/{assistant}/rag",
  sources: "/external/v1/assistants/{assistant}/sources",
  pdfPage: "/chat/reference/pdf/{token}",
  pdfRefresh: "/chat/reference/pdf/refresh",
  image: "/chat/reference/image/{token}",
} as const;

/** Where the sharing area's paths start. */
export const adminBasePath = "/admin/v1";

/** A template as a router pattern: `{assistant}` becomes `:assistant`. */
export function routePattern(template: string): string {
  return template.replaceAll(/\{(\w+)\}/g, ":$1");
}

function fill(template: string, values: Record<string, string>): string {
  return template.replaceAll(/\{(\w+)\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for {${name}} in ${template}`);
    return encodeURIComponent(value);
  });
}

/**
 * Concrete public paths, each part encoded.
 *
 * @example
 * `${baseUrl}${publicPaths.rag("asst_abc")}`; // …/external/v1/assistants/asst_abc/rag
 */
export const publicPaths = {
  ask: (assistant: string, session: string) =>
    fill(publicPathTemplates.ask, { assistant, external_session: session }),
  rag: (assistant: string) => fill(publicPathTemplates.rag, { assistant }),
  sources: (assistant: string) => fill(publicPathTemplates.sources, { assistant }),
  /** `page` is sent as given, so a test can send one out of bounds. */
  pdfPage: (token: string, page: number | string) =>
    `${fill(publicPathTemplates.pdfPage, { token })}?page=${encodeURIComponent(page)}`,
  pdfRefresh: publicPathTemplates.pdfRefresh,
  image: (token: string) => fill(publicPathTemplates.image, { token }),
};
