/**
 * What a host app needs to use an assistant: its id and the service's base URL, as a ready-to-paste
 * env block (the key comes from the Keys tab, shown once) and the SDK's route handler.
 */
import type { DatasourceRecord, Share } from "@/sdk/admin/schemas.ts";
import { CopyButton } from "./copy-button";

/** `CITED_DATASOURCES` is `Name=ds_…` pairs split on `,` and the last `=`: names lose those characters. */
function datasourceSetting(datasources: DatasourceRecord[]): string {
  return datasources
    .map((datasource) => `${datasource.name.replace(/[,=]/g, " ").trim()}=${datasource.id}`)
    .join(",");
}

function envBlock(share: Share, datasources: DatasourceRecord[]): string {
  return [
    `CITED_BASE_URL=${share.base_url}`,
    `CITED_ASSISTANT_ID=${share.assistant}`,
    "# A key with the scopes ask and rag, from the Keys tab (shown once, when it is created):",
    "CITED_API_KEY=cka_live_…",
    ...(datasources.length > 0 ? [`CITED_DATASOURCES=${datasourceSetting(datasources)}`] : []),
  ].join("\n");
}

const sdkSnippet = `// app/api/cited/[...path]/route.ts: the only route the browser talks to
import { createServiceHandler, createSqlServiceStore } from "@/sdk/server/index.ts";
import { getSignedInUser } from "@/lib/auth"; // your session check

export const { GET, POST, PATCH, DELETE } = createServiceHandler({
  baseUrl: process.env.CITED_BASE_URL!,
  assistantId: process.env.CITED_ASSISTANT_ID!,
  apiKey: process.env.CITED_API_KEY!, // server only: never NEXT_PUBLIC_
  allowedOrigin: process.env.CITED_APP_ORIGIN!,
  mountPath: "/api/cited",
  store: createSqlServiceStore({ client: yourPostgresPool }),
  async authenticate(request) {
    const user = await getSignedInUser(request);
    return user ? { id: user.id, externalUserId: user.id } : null;
  },
});`;

function Field({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="flex flex-col gap-1">
      <span className="text-sm font-medium">{label}</span>
      <div className="flex flex-wrap items-center gap-2">
        <code
          data-testid={testId}
          className="break-all rounded-lg bg-stone-100 px-2 py-1 text-sm dark:bg-stone-800"
        >
          {value}
        </code>
        <CopyButton text={value} label={`Copy the ${label.toLowerCase()}`} />
      </div>
    </div>
  );
}

function Snippet({ title, text, testId }: { title: string; text: string; testId: string }) {
  return (
    <section className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">{title}</h2>
        <CopyButton text={text} label={`Copy the ${title.toLowerCase()}`} />
      </div>
      <pre
        data-testid={testId}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling code block must be reachable by keyboard.
        tabIndex={0}
        className="overflow-x-auto rounded-xl border border-stone-300 bg-white p-3 text-xs leading-relaxed dark:border-stone-700 dark:bg-stone-900"
      >
        <code>{text}</code>
      </pre>
    </section>
  );
}

export function ShareSettings({ share, datasources }: { share: Share; datasources: DatasourceRecord[] }) {
  return (
    <div className="flex flex-col gap-6">
      <section className="flex flex-col gap-3 rounded-xl border border-stone-300 bg-white p-4 dark:border-stone-700 dark:bg-stone-900">
        <Field label="Assistant id" value={share.assistant} testId="share-assistant-id" />
        <Field label="Base URL" value={share.base_url} testId="share-base-url" />
      </section>
      <Snippet title="Env block" text={envBlock(share, datasources)} testId="share-env" />
      <p className="-mt-4 text-sm text-stone-700 dark:text-stone-300">
        Paste it into the host app's server environment (<code>.env.local</code> for this app). The key stays
        on the server; the browser talks only to the host's own route.
      </p>
      <Snippet title="SDK route handler" text={sdkSnippet} testId="share-sdk" />
    </div>
  );
}
