/** The image formats read by OCR, told by their first bytes whatever the file is called. */
import { extname } from "node:path";

export interface ImageType {
  name: "PNG" | "JPEG" | "TIFF" | "WebP";
  mime: "image/png" | "image/jpeg" | "image/tiff" | "image/webp";
  /** The extension the scratch copy gets, so that tesseract's reader agrees with the bytes. */
  extension: string;
}

export const imageExtensions = [".png", ".jpg", ".jpeg", ".tif", ".tiff", ".webp"] as const;

const startsWith = (head: Uint8Array, bytes: readonly number[], at = 0) =>
  bytes.every((byte, index) => head[at + index] === byte);

const ascii = (text: string) => [...text].map((character) => character.charCodeAt(0));

/** The image type `head` (the file's first 12 bytes or more) begins like, or null. */
export function sniffImage(head: Uint8Array): ImageType | null {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return { name: "PNG", mime: "image/png", extension: ".png" };
  if (startsWith(head, [0xff, 0xd8, 0xff])) return { name: "JPEG", mime: "image/jpeg", extension: ".jpg" };
  if (startsWith(head, ascii("II*\0")) || startsWith(head, ascii("MM\0*")))
    return { name: "TIFF", mime: "image/tiff", extension: ".tif" };
  if (startsWith(head, ascii("RIFF")) && startsWith(head, ascii("WEBP"), 8))
    return { name: "WebP", mime: "image/webp", extension: ".webp" };
  return null;
}

/** Whether the file's name says it is an image of a kind read by OCR. */
export function hasImageExtension(fileName: string): boolean {
  return (imageExtensions as readonly string[]).includes(extname(fileName).toLowerCase());
}
