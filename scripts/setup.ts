/**
 * `npm run setup`, which `npm test` runs first: puts in the Debian packages the tests need that this machine
 * lacks (as root, with apt-get; anyone else gets the one command to run, and a stop), then the embedding model.
 */
import { pipCommand } from "../service/embedding/pip-command.ts";
import { embeddingModelCached, fetchEmbeddingModel } from "./setup/embedding-model.ts";
import {
  install,
  missingPackages,
  setupPlan,
  testRequirements,
  thisMachine,
} from "./setup/system-packages.ts";

const requirements = testRequirements({
  modelCached: await embeddingModelCached(),
  pipFound: () => pipCommand() !== null,
});
const plan = setupPlan(missingPackages(requirements), thisMachine());
if (plan.kind === "ask") {
  console.error(`npm test needs packages this machine lacks; install them with:\n  ${plan.command}`);
  process.exit(1);
}
if (plan.kind === "install") {
  install(plan.commands);
  const stillMissing = missingPackages(requirements);
  if (stillMissing.length > 0) {
    console.error(`still missing after apt-get install: ${stillMissing.join(", ")}`);
    process.exit(1);
  }
}
if (!(await fetchEmbeddingModel())) process.exit(1);
