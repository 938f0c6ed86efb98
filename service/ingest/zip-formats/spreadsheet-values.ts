/** How spreadsheet values read as text: numbers without float noise, Excel date serials as ISO dates. */

/** At most 15 significant digits, as a spreadsheet shows them: 0.1 + 0.2 reads "0.3". */
export function numberText(value: number): string {
  return String(Number(value.toPrecision(15)));
}

const MS_PER_DAY = 86_400_000;
/** Day 0 of Excel's 1900 system is 1899-12-30 once its fictional 1900-02-29 is accounted for. */
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);

/** An Excel serial date as "2024-03-05", with the time ("2024-03-05 14:30") when it has one. */
export function excelSerialDate(serial: number, date1904: boolean): string {
  const start = date1904 ? EPOCH_1904 : EPOCH_1900;
  const adjusted = !date1904 && serial < 60 ? serial + 1 : serial;
  const time = new Date(start + Math.round((adjusted * MS_PER_DAY) / 1000) * 1000);
  if (Number.isNaN(time.getTime())) return numberText(serial);
  const iso = time.toISOString();
  const clock = iso.slice(11, 16);
  if (serial < 1) return clock;
  return clock === "00:00" ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${clock}`;
}

/** A custom number format that shows a date or time: d, m, y, h or s outside quotes, brackets and escapes. */
export function isDateFormat(code: string): boolean {
  const bare = code
    .replace(/"[^"]*"/gu, "")
    .replace(/\\./gu, "")
    .replace(/\[(?![hms]+\])[^\]]*\]/giu, "");
  return /[dmyhs]/iu.test(bare) && !/^General$/iu.test(bare.trim());
}
