/**
 * `npm run fetch-model`: puts the verified embedding model into the repository's model cache (see
 * scripts/setup/embedding-model.ts); `npm test` and CI do it in their set-up. It prints where the model came
 * from, or why it could not.
 */
import { fetchEmbeddingModel } from "./setup/embedding-model.ts";

if (!(await fetchEmbeddingModel())) process.exitCode = 1;
