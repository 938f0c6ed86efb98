#!/usr/bin/env node
/**
 * `cka`. `cka serve` first fixes glibc's mmap threshold (below). Then Node's on-disk compile cache is turned on,
 * for this process and (through the environment) its worker threads: later starts skip compiling the service
 * and pdfjs again (~0.2 s of CPU per cold pool).
 */
import { enableCompileCache } from "node:module";

/** Bytes from which glibc maps each allocation apart, and unmaps it when freed (its own starting value). */
const mmapThreshold = 128 * 1024;

/**
 * glibc raises that threshold each time a large mapped buffer is freed, so later large buffers (an index's
 * arrays, a snapshot, an upload) come from its heap and stay resident after they are freed: a service on
 * PostgreSQL kept 124 MiB for a 100k-passage index after 150 s idle, 75 MiB with the threshold fixed. glibc
 * reads the setting only when a process starts, so `cka serve` starts again with it, as the same process.
 * Not when it was set already, under a debugger (it would stop twice) or a parent's IPC channel (execve
 * closes it), nor where execve is not allowed (Node's permission model): the service then runs as it is.
 */
function restartWithFixedMmapThreshold(): void {
  if (
    process.argv[2] !== "serve" ||
    process.env.MALLOC_MMAP_THRESHOLD_ !== undefined ||
    process.send !== undefined ||
    process.execArgv.some((flag) => flag.startsWith("--inspect")) ||
    typeof process.execve !== "function"
  )
    return;
  const report = process.report.getReport() as { header?: { glibcVersionRuntime?: string } };
  if (report.header?.glibcVersionRuntime === undefined) return;
  try {
    process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
      ...process.env,
      MALLOC_MMAP_THRESHOLD_: String(mmapThreshold),
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ERR_ACCESS_DENIED") throw error;
  }
}

restartWithFixedMmapThreshold();
const { directory } = enableCompileCache();
if (directory !== undefined) process.env.NODE_COMPILE_CACHE = directory;
await import("./cli/main.ts");
