/**
 * Each entry point's export list, pinned: a name a host can import is a promise, so adding or dropping one is a
 * decision made here, in review, not a side effect of an `export` in some module.
 */
import { resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const expected: Record<string, readonly string[]> = {
  core: [
    "AnswerMarker",
    "AnswerSegment",
    "AnswerState",
    "AnswerStatus",
    "AnswerStreamError",
    "ApiConnectionError",
    "ApiTimeoutError",
    "AuthenticationError",
    "BadRequestError",
    "CitedApiError",
    "CitedError",
    "ConflictError",
    "CssBox",
    "HttpProblem",
    "MarkerResolution",
    "NotFoundError",
    "PayloadTooLargeError",
    "PdfLocation",
    "PdfSliceError",
    "PermissionDeniedError",
    "RateLimitError",
    "SDK_VERSION",
    "ServiceUnavailableError",
    "TextSegment",
    "UnprocessableEntityError",
    "apiErrorFrom",
    "assertSameOrigin",
    "boundingRect",
    "createAnswerState",
    "fetchChecked",
    "internalProblem",
    "limits",
    "mergeAnswer",
    "newRequestId",
    "parseInput",
    "parseMarker",
    "pdfLocation",
    "readAnswers",
    "readJsonBody",
    "reduceAnswerText",
    "requestIdFor",
    "resolveMarker",
    "rowSentence",
    "scaleRect",
    "segmentAnswer",
    "titleFrom",
    "wire",
  ],
  server: [
    "AskStream",
    "AuthenticatedUser",
    "Conversation",
    "OpenServiceStore",
    "PdfSlice",
    "SaveAnswerOptions",
    "ServedImage",
    "ServiceCallOptions",
    "ServiceClient",
    "ServiceClientOptions",
    "ServiceHandler",
    "ServiceHandlerConfig",
    "ServiceStore",
    "SqlQueryClient",
    "SqlServiceStore",
    "SqlServiceStoreOptions",
    "StoredMessage",
    "StoredReference",
    "createMemoryServiceStore",
    "createServiceClient",
    "createServiceHandler",
    "createSqlServiceStore",
    "problemFromServiceError",
    "serviceStoreMigrationSql",
    "serviceStoreSql",
    "serviceStoreStatements",
    "serviceStoreTables",
  ],
  admin: ["AdminClient", "AdminClientOptions", "DocumentsWatch", "createAdminClient", "wire"],
  browser: [
    "AskOptions",
    "BrowserPdfSlice",
    "PdfOptions",
    "RagOptions",
    "RequestOptions",
    "ServiceBrowserClient",
    "ServiceBrowserClientOptions",
    "createServiceBrowserClient",
    "readUpdates",
  ],
  react: [
    "AnswerPiece",
    "AskLevels",
    "ChipPiece",
    "CitedAnswer",
    "CitedAnswerProps",
    "CitedChat",
    "CitedChatMessage",
    "CitedChatStatus",
    "CitedChatTurn",
    "ClaimCare",
    "ClaimPiece",
    "EvidenceContext",
    "ImageEvidence",
    "ImageEvidenceProps",
    "LoadImage",
    "LoadPdf",
    "NumberedReference",
    "OpenedEvidence",
    "PageOfFile",
    "PdfDocumentOptions",
    "PdfEvidence",
    "PdfEvidenceProps",
    "PdfSlice",
    "PdfSliceRequest",
    "ReferenceEvidence",
    "ReferenceEvidenceProps",
    "RenderEvidence",
    "TextPiece",
    "UseCitedChatOptions",
    "answerPieces",
    "backingWords",
    "careWords",
    "citationLabel",
    "claimCares",
    "clockTime",
    "forgetPdfSlices",
    "pageLabel",
    "pageRangeLabel",
    "referenceLocation",
    "sourceDetails",
    "sourceName",
    "useCitedChat",
  ],
  "adapters/supabase": [
    "SupabaseAccessTokenClaims",
    "SupabaseAccessTokenOptions",
    "SupabaseAuthenticateOptions",
    "SupabaseKeysUnavailableError",
    "SupabaseServiceStoreOptions",
    "SupabaseStoreError",
    "SupabaseUserClientOptions",
    "bearerToken",
    "createSupabaseAccessTokenVerifier",
    "createSupabaseAuthenticate",
    "createSupabaseServiceStore",
    "createSupabaseUserClient",
  ],
  "adapters/fetch": ["AccessTokenSource", "AuthenticatedFetchOptions", "createAuthenticatedFetch"],
  "adapters/supabase-browser": ["supabaseAccessTokenSource"],
};

function exportsOf(entries: readonly string[]): Map<string, string[]> {
  const files = entries.map((entry) => resolve(import.meta.dirname, entry, "index.ts"));
  const program = ts.createProgram(files, {
    allowImportingTsExtensions: true,
    noEmit: true,
    jsx: ts.JsxEmit.ReactJSX,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
  });
  const checker = program.getTypeChecker();
  return new Map(
    entries.map((entry, index) => {
      const source = program.getSourceFile(files[index] ?? "");
      const module = source && checker.getSymbolAtLocation(source);
      if (!module) throw new Error(`sdk/${entry}/index.ts did not load`);
      return [
        entry,
        checker
          .getExportsOfModule(module)
          .map((symbol) => symbol.name)
          .sort(),
      ];
    }),
  );
}

describe("sdk entry points", () => {
  const actual = exportsOf(Object.keys(expected));

  it.each(Object.keys(expected))("sdk/%s exports the chosen names and no others", (entry) => {
    expect(actual.get(entry)).toEqual([...(expected[entry] ?? [])].sort());
  });

  it("keeps the wire schemas behind the wire namespace", () => {
    expect(actual.get("core")).toContain("wire");
    expect(actual.get("core")?.filter((name) => name.endsWith("Schema"))).toEqual([]);
  });
});
