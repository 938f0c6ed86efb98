import { notFound } from "next/navigation";
import { connection } from "next/server";
import { EvidenceHarness } from "@/components/harness/evidence-harness";

/**
 * A test bench for the SDK's components with answers and PDF slices that an end-to-end test
 * recorded from the real service. Off (404) unless the server runs with CITED_E2E_HARNESS=1.
 */
export default async function EvidenceHarnessPage() {
  await connection();
  if (process.env.CITED_E2E_HARNESS !== "1") notFound();
  return (
    <main className="mx-auto flex min-h-screen max-w-6xl flex-col gap-4 p-4">
      <h1 className="text-xl font-semibold">Evidence harness</h1>
      <EvidenceHarness />
    </main>
  );
}
