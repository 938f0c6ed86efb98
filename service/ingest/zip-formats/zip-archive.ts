/**
 * Opens the ZIP container of a DOCX, PPTX, XLSX, ODS or EPUB without trusting its headers: the entry count
 * and declared sizes are checked before anything is inflated, and no entry may inflate past what it declared.
 */
import { crc32, inflateRawSync } from "node:zlib";
import AdmZip from "adm-zip";
import { SourceReadError } from "../types.ts";

/**
 * Far above any real document, which a bomb or a damaged directory exceeds. The parts are parsed whole, at
 * about ten times their size in memory, so the unpacked total also bounds what one upload may cost.
 */
export const zipLimits = { entries: 20_000, totalBytes: 128 * 1024 * 1024 } as const;

const STORED = 0;
const DEFLATED = 8;
const cfbMagic = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

export interface ZipArchive {
  /** Entry names as stored ("word/document.xml"), directories left out. */
  readonly names: readonly string[];
  has(name: string): boolean;
  /** The entry's bytes decoded as UTF-8, or null when there is no such entry. */
  text(name: string): string | null;
}

/**
 * @param formatName how the customer knows the format, for error messages ("Word document").
 * @throws SourceReadError naming what is wrong: not a ZIP, truncated, password-protected, too large when unpacked.
 */
export function openZip(bytes: Uint8Array, formatName: string): ZipArchive {
  if (bytes.length === 0) throw new SourceReadError("The file is empty.");
  if (cfbMagic.every((byte, index) => bytes[index] === byte))
    throw new SourceReadError(compoundFileProblem(bytes, formatName));
  if (bytes[0] !== 0x50 || bytes[1] !== 0x4b) {
    throw new SourceReadError(
      `This is not ${withArticle(formatName)}: the file is not a ZIP package (it may have the wrong extension).`,
    );
  }
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let entries: AdmZip.IZipEntry[];
  try {
    entries = new AdmZip(buffer).getEntries();
  } catch {
    throw new SourceReadError(
      `The ${formatName} is damaged or incomplete: its ZIP directory cannot be read.`,
    );
  }
  const files = entries.filter((entry) => !entry.isDirectory);
  if (files.length > zipLimits.entries) {
    throw new SourceReadError(
      `The ${formatName} holds ${files.length} files, more than the ${zipLimits.entries} read: it is refused as a possible ZIP bomb.`,
    );
  }
  const declared = files.reduce((sum, entry) => sum + entry.header.size, 0);
  if (declared > zipLimits.totalBytes) {
    throw new SourceReadError(
      `The ${formatName} unpacks to ${megabytes(declared)} MB, more than the ${megabytes(zipLimits.totalBytes)} MB read: it is refused as too large or a ZIP bomb.`,
    );
  }
  if (files.some((entry) => entry.header.encrypted)) {
    throw new SourceReadError(
      `The ${formatName} is password-protected: remove the password and upload it again.`,
    );
  }
  const byName = new Map(files.map((entry) => [entry.entryName, entry]));
  return {
    names: [...byName.keys()],
    has: (name) => byName.has(name),
    text(name) {
      const entry = byName.get(name);
      return entry ? new TextDecoder().decode(inflate(entry, formatName)) : null;
    },
  };
}

function inflate(entry: AdmZip.IZipEntry, formatName: string): Buffer {
  const { header } = entry;
  const damaged = () =>
    new SourceReadError(
      `The ${formatName} is damaged or incomplete: its part ${entry.entryName} cannot be unpacked.`,
    );
  let raw: Buffer;
  try {
    raw = entry.getCompressedData();
  } catch {
    throw damaged();
  }
  let data: Buffer;
  if (header.method === STORED) data = raw;
  else if (header.method === DEFLATED) {
    try {
      // One byte more than declared tells a lying header from an honest one.
      data = inflateRawSync(raw, { maxOutputLength: Math.max(1, header.size + 1) });
    } catch (error) {
      if (error instanceof RangeError) {
        throw new SourceReadError(
          `The ${formatName}'s part ${entry.entryName} unpacks to more than it declares: it is refused as a ZIP bomb.`,
        );
      }
      throw damaged();
    }
  } else {
    throw new SourceReadError(
      `The ${formatName} uses a compression method (${header.method}) that cannot be read.`,
    );
  }
  if (data.length > header.size) {
    throw new SourceReadError(
      `The ${formatName}'s part ${entry.entryName} unpacks to more than it declares: it is refused as a ZIP bomb.`,
    );
  }
  if (data.length !== header.size || crc32(data) !== header.crc) throw damaged();
  return data;
}

/** Office saves a password-protected DOCX/XLSX/PPTX as an OLE compound file with an EncryptionInfo stream. */
function compoundFileProblem(bytes: Uint8Array, formatName: string): string {
  const marker = Buffer.from("EncryptionInfo", "utf16le");
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(marker)
    ? `The ${formatName} is password-protected: remove the password and upload it again.`
    : `This is an old binary Office file, not ${withArticle(formatName)}: save it in the current format (.docx, .xlsx, .pptx) and upload that.`;
}

function megabytes(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(0);
}

/** "a Word document", "an Excel workbook": the names used here start with a vowel letter exactly when they take "an". */
export function withArticle(formatName: string): string {
  return `${/^[AEIOU]/iu.test(formatName) ? "an" : "a"} ${formatName}`;
}
