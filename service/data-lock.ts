/** One process owns a data folder: PGlite has no lock of its own and two owners would corrupt it. */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes the lock or throws naming the process that holds it; a lock left by a dead process is taken over. */
export function acquireDataLock(dataDir: string): () => void {
  const lockPath = join(dataDir, "owner.lock");
  try {
    writeFileSync(lockPath, String(process.pid), { flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const holder = Number(readFileSync(lockPath, "utf8").trim());
    if (Number.isInteger(holder) && holder !== process.pid && alive(holder)) {
      throw new Error(
        `The data folder ${dataDir} is in use by process ${holder}; stop it or use another --data.`,
      );
    }
    writeFileSync(lockPath, String(process.pid));
  }
  return () => rmSync(lockPath, { force: true });
}
