/** Calc spreadsheets: sheets as tables, repeated rows and cells counted as Calc numbers them. */
import { describe, expect, it } from "vitest";
import { readOds } from "./read-ods.ts";
import { ods } from "./testing/build-documents.ts";

const cell = (text: string, attributes = 'office:value-type="string"') =>
  `<table:table-cell ${attributes}><text:p>${text}</text:p></table:table-cell>`;

describe("readOds", () => {
  it("cites rows by sheet and the number Calc shows, with formulas as values", () => {
    const table = `<table:table table:name="Budget"><table:table-row table:number-rows-repeated="2"><table:table-cell table:number-columns-repeated="3"/></table:table-row><table:table-header-rows><table:table-row>${cell("Item")}${cell("Cost")}${cell("Paid")}</table:table-row></table:table-header-rows><table:table-row>${cell("Tapes")}${cell("400", 'office:value-type="float" office:value="400"')}${cell("2024-03-05", 'office:value-type="date" office:date-value="2024-03-05"')}</table:table-row><table:table-row table:number-rows-repeated="3"><table:table-cell/></table:table-row><table:table-row>${cell("Vault")}${cell("", 'table:formula="of:=[.B4]*3" office:value-type="float" office:value="1200"')}<table:table-cell table:number-columns-repeated="1020"/></table:table-row><table:table-row table:number-rows-repeated="1048000"><table:table-cell table:number-columns-repeated="1024"/></table:table-row></table:table>`;
    const result = readOds("budget.ods", ods(table), {});
    expect(result.blocks).toHaveLength(1);
    expect(result.blocks[0]?.headingPath).toEqual(["Budget"]);
    expect(result.blocks[0]?.sentences.map((sentence) => sentence.text)).toEqual([
      "Row: 4; Item: Tapes; Cost: 400; Paid: 2024-03-05",
      "Row: 8; Item: Vault; Cost: 1200",
    ]);
  });

  it("refuses, with a reason, a sheet whose repeated filled cells would expand to more than five million", () => {
    const row = `<table:table-row table:number-rows-repeated="10000">${cell("x", 'office:value-type="string" table:number-columns-repeated="1000"')}</table:table-row>`;
    expect(() => readOds("bomb.ods", ods(`<table:table table:name="Bomb">${row}</table:table>`), {})).toThrow(
      "The OpenDocument spreadsheet repeats its filled cells into more than 5 million; it is not read as a table.",
    );
  });

  it("refuses a password-protected file with a reason", () => {
    expect(() => readOds("budget.ods", ods("", { encrypted: true }), {})).toThrow(
      "The OpenDocument spreadsheet is password-protected: remove the password and upload it again.",
    );
  });
});
