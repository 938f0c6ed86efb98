/** References of text sources carry the quote in its context, and a code block's lines as code. */
import { describe, expect, it } from "vitest";
import { cite } from "../answer/references.ts";
import { buildPassages } from "../ingest/build-passages.ts";
import { readMarkdown } from "../ingest/text/read-markdown.ts";
import { createPdfTokens } from "../pdf-slices/pdf-token.ts";
import { wireReference } from "./wire-reference.ts";

const markdown = `# Backups

Backups fail quietly. Keep three copies of your data. Test a restore each month.

\`\`\`sh
tar -czf backup.tgz /etc
split -b 2000m backup.tgz part-
ls part-*
\`\`\`
`;

const passages = buildPassages(readMarkdown("backups.md", new TextEncoder().encode(markdown), {}).blocks, {
  assistantId: "asst_references",
  datasourceId: "ds_references",
  documentId: "doc_references",
  sha256: "references",
  title: "Backups",
}).map((passage) => ({ ...passage, fileName: "backups.md" }));

const context = {
  tokens: createPdfTokens("a-secret-of-thirty-two-characters!", 600),
  user: "u",
  session: "s",
};

describe("a reference to a Markdown source", () => {
  it("quotes a sentence among its neighbours", () => {
    const prose = passages.find((passage) => passage.text.includes("three copies"))!;
    const reference = wireReference(cite({ passage: prose, first: 1, last: 1 }, context));
    expect(reference).toMatchObject({
      kind: "paragraph",
      quote: "Keep three copies of your data.",
      context: {
        before: ["Backups fail quietly."],
        cited: ["Keep three copies of your data."],
        after: ["Test a restore each month."],
        code: false,
      },
    });
  });

  it("quotes a line of a code block among its lines, as code, never merged with the prose before it", () => {
    const code = passages.find((passage) => passage.text.includes("split -b"))!;
    expect(code.text).not.toContain("three copies");
    const reference = wireReference(cite({ passage: code, first: 1, last: 1 }, context));
    expect(reference).toMatchObject({
      quote: "split -b 2000m backup.tgz part-",
      context: { before: ["tar -czf backup.tgz /etc"], after: ["ls part-*"], code: true },
    });
  });
});
