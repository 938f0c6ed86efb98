/** Runs in every test file: after its own hooks have stopped its services, its temporary folders go. */
import { afterAll } from "vitest";
import { removeTemporaryDirectories } from "./temporary-directory.ts";

afterAll(removeTemporaryDirectories);
