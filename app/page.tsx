import { ProductIntro } from "@/components/product-intro";
import { readServerEnvironment } from "@/lib/env";

export default function HomePage() {
  const { CITED_SERVICE_URL } = readServerEnvironment();
  return (
    <main className="mx-auto flex max-w-2xl flex-col gap-6 px-6 py-16">
      <ProductIntro />
      <p className="text-sm text-stone-500">
        The conversation view arrives with the reference host app; the service answers at {CITED_SERVICE_URL}.
      </p>
    </main>
  );
}
