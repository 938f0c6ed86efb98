/** The large PDF of the ingestion benchmark: Debian's octave.pdf (~1,150 pages), fetched once with apt-get download. */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";

const cache = resolve(import.meta.dirname, "../../.data/bench");

export function octavePdf(): string | null {
  const target = join(cache, "usr/share/doc/octave/octave.pdf");
  if (existsSync(target)) return target;
  mkdirSync(cache, { recursive: true });
  try {
    execFileSync("apt-get", ["download", "octave-doc"], { cwd: cache, stdio: "pipe" });
    const deb = readdirSync(cache).find((name) => name.startsWith("octave-doc_") && name.endsWith(".deb"));
    if (!deb) return null;
    execFileSync("dpkg", ["-x", deb, "."], { cwd: cache, stdio: "pipe" });
  } catch (error) {
    console.error(
      `octave.pdf unavailable (${(error as Error).message.split("\n")[0]}); skipping the large-PDF run`,
    );
    return null;
  }
  return existsSync(target) ? target : null;
}
