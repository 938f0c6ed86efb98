/** Workbooks: each sheet a table, each row cited with the row number Excel shows, formulas as their saved values. */
import { describe, expect, it } from "vitest";
import { readXlsx } from "./read-xlsx.ts";
import { xlsx } from "./testing/build-documents.ts";

const styles = `<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts count="1"><numFmt numFmtId="164" formatCode="dd/mm/yyyy"/></numFmts><cellXfs count="3"><xf numFmtId="0"/><xf numFmtId="164"/><xf numFmtId="14"/></cellXfs></styleSheet>`;

describe("readXlsx", () => {
  it("cites each row by sheet, row number and the columns it quotes", () => {
    const result = readXlsx(
      "sales.xlsx",
      xlsx(
        [
          {
            name: "Q1 sales",
            rows: [
              {
                r: 2,
                cells: '<c r="B2" t="s"><v>0</v></c><c r="C2" t="s"><v>1</v></c><c r="D2" t="s"><v>2</v></c>',
              },
              {
                r: 3,
                cells:
                  '<c r="B3" t="s"><v>3</v></c><c r="C3"><v>1200.5</v></c><c r="D3" s="1"><v>45356</v></c>',
              },
              {
                r: 5,
                cells:
                  '<c r="B5" t="inlineStr"><is><t>South</t></is></c><c r="C5"><f>C3*2</f><v>2401</v></c><c r="D5" s="2"><v>45357</v></c><c r="E5" t="b"><v>1</v></c>',
              },
            ],
          },
          { name: "Empty", rows: [] },
        ],
        { sharedStrings: ["Region", "Sales", "Date", "North"], styles },
      ),
      {},
    );
    expect(result.blocks).toHaveLength(1);
    const [block] = result.blocks;
    expect(block?.headingPath).toEqual(["Q1 sales"]);
    expect(block?.sentences.map((sentence) => sentence.text)).toEqual([
      "Row: 3; Region: North; Sales: 1200.5; Date: 2024-03-05",
      "Row: 5; Region: South; Sales: 2401; Date: 2024-03-06; E: TRUE",
    ]);
    expect(block?.evidence).toMatchObject({
      kind: "table",
      columns: ["Row", "Region", "Sales", "Date", "E"],
      rows: [
        ["3", "North", "1200.5", "2024-03-05", ""],
        ["5", "South", "2401", "2024-03-06", "TRUE"],
      ],
    });
    expect(result.warnings).toEqual([]);
  });

  it("refuses, with a reason, rows whose far-off cells would pad the sheet past 20 million cells", () => {
    const rows = Array.from({ length: 2_000 }, (_, index) => ({
      r: index + 1,
      cells: `<c r="XFD${index + 1}"><v>1</v></c>`,
    }));
    expect(() => readXlsx("sparse.xlsx", xlsx([{ name: "Sparse", rows }]), {})).toThrow(
      "The Excel workbook's rows reach out to more than 20 million cells; it is not read as a table.",
    );
  });

  it("names columns by letter when the first row holds numbers, and warns of formulas saved without values", () => {
    const result = readXlsx(
      "numbers.xlsx",
      xlsx([
        {
          name: "Data",
          rows: [{ r: 1, cells: '<c r="A1"><v>0.30000000000000004</v></c><c r="B1"><f>A1+1</f></c>' }],
        },
      ]),
      {},
    );
    expect(result.blocks[0]?.sentences.map((sentence) => sentence.text)).toEqual(["Row: 1; A: 0.3"]);
    expect(result.warnings).toEqual([
      "1 formula has no value saved with the file (it was saved without calculating); those cells are left empty.",
    ]);
  });
});
