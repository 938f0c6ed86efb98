/**
 * An assistant's sources in the console (`/console/assistants/{id}`): files dropped or picked into a
 * datasource, one row each, from upload progress to ready or failed.
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { expect, type Locator, type Page } from "@playwright/test";

export interface SourceFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** A file on disk as the page is handed it. */
export function sourceFile(path: string, mimeType: string): SourceFile {
  return { name: basename(path), mimeType, buffer: readFileSync(path) };
}

export class ConsoleSourcesPage {
  readonly page: Page;
  readonly dropZone: Locator;
  readonly datasourceInput: Locator;
  readonly fileInput: Locator;
  readonly rows: Locator;
  readonly groups: Locator;

  constructor(page: Page) {
    this.page = page;
    this.dropZone = page.getByTestId("source-drop-zone");
    this.datasourceInput = this.dropZone.getByLabel("Datasource");
    this.fileInput = page.getByTestId("source-file-input");
    this.rows = page.getByTestId("source-row");
    this.groups = page.getByTestId("datasource-group");
  }

  async goto(assistantId: string): Promise<void> {
    await this.page.goto(`/console/assistants/${assistantId}`);
    await expect(this.dropZone).toBeVisible();
  }

  row(fileName: string): Locator {
    return this.rows.and(this.page.locator(`[data-file-name="${fileName}"]`));
  }

  group(name: string): Locator {
    return this.groups.and(this.page.locator(`[data-datasource="${name}"]`));
  }

  /** Drops the files on the drop zone at once, as a person dragging them from a file manager would. */
  async drop(files: readonly SourceFile[]): Promise<void> {
    const dataTransfer = await this.page.evaluateHandle(
      (payload) => {
        const transfer = new DataTransfer();
        for (const file of payload) {
          const bytes = Uint8Array.from(atob(file.base64), (character) => character.charCodeAt(0));
          transfer.items.add(new File([bytes], file.name, { type: file.mimeType }));
        }
        return transfer;
      },
      files.map((file) => ({
        name: file.name,
        mimeType: file.mimeType,
        base64: file.buffer.toString("base64"),
      })),
    );
    await this.dropZone.dispatchEvent("dragenter", { dataTransfer });
    await this.dropZone.dispatchEvent("dragover", { dataTransfer });
    await this.dropZone.dispatchEvent("drop", { dataTransfer });
  }

  /** Picks the files with the file chooser instead. */
  async choose(files: readonly SourceFile[]): Promise<void> {
    await this.fileInput.setInputFiles(files.map((file) => ({ ...file })));
  }

  async expectState(fileName: string, state: string, timeout = 10_000): Promise<void> {
    await expect(this.row(fileName)).toHaveAttribute("data-state", state, { timeout });
  }

  /** Deletes the file's document after the confirmation, and waits until its row is gone. */
  async delete(fileName: string): Promise<void> {
    await this.row(fileName)
      .getByRole("button", { name: `Delete ${fileName}` })
      .click();
    const dialog = this.page.getByTestId("confirm-dialog");
    await expect(dialog).toContainText("answers stop citing it");
    await dialog.getByRole("button", { name: "Delete document" }).click();
    await expect(this.row(fileName)).toHaveCount(0);
  }

  detail(fileName: string): Locator {
    return this.row(fileName).getByTestId("source-detail");
  }

  /**
   * Starts noting each state every row is shown in, with its detail line, as the page changes; the
   * function returned reads them per file. Polling could miss a state that lasts a moment.
   */
  async recordStates(): Promise<() => Promise<Record<string, Array<{ state: string; detail: string }>>>> {
    await this.page.evaluate(() => {
      const seen: Record<string, Array<{ state: string; detail: string }>> = {};
      Reflect.set(window, "__sourceStates", seen);
      const note = () => {
        for (const row of document.querySelectorAll('[data-testid="source-row"]')) {
          const name = row.getAttribute("data-file-name") ?? "";
          const entry = {
            state: row.getAttribute("data-state") ?? "",
            detail: row.querySelector('[data-testid="source-detail"]')?.textContent ?? "",
          };
          const states = seen[name] ?? [];
          seen[name] = states;
          const last = states[states.length - 1];
          if (last?.state !== entry.state || last.detail !== entry.detail) states.push(entry);
        }
      };
      note();
      new MutationObserver(note).observe(document.body, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
      });
    });
    return () =>
      this.page.evaluate(
        () =>
          Reflect.get(window, "__sourceStates") as Record<string, Array<{ state: string; detail: string }>>,
      );
  }
}
