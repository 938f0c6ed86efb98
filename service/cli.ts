#!/usr/bin/env node
/**
 * `cka`. Turns on Node's on-disk compile cache first, for this process and (through the environment) its
 * worker threads: later starts skip compiling the service and pdfjs again (~0.2 s of CPU per cold pool).
 */
import { enableCompileCache } from "node:module";

const { directory } = enableCompileCache();
if (directory !== undefined) process.env.NODE_COMPILE_CACHE = directory;
await import("./cli/main.ts");
