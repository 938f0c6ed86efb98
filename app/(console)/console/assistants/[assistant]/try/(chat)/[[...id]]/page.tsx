import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { z } from "zod";
import { ConversationView } from "@/components/chat/conversation-view";
import { requireOperator } from "@/lib/console/operator";
import { trialStore, trialUserId } from "@/lib/console/trial";
import { assistantIdSchema } from "@/sdk/core/wire.ts";

export const metadata: Metadata = { title: "Try · Console · Cited" };

/** A new test conversation, or one of the operator's with this assistant; anything else is a 404. */
export default async function TryChatPage({
  params,
}: {
  params: Promise<{ assistant: string; id?: string[] }>;
}) {
  const operator = await requireOperator();
  const { assistant, id: segments = [] } = await params;
  const [id, ...rest] = segments;
  const assistantId = assistantIdSchema.safeParse(assistant);
  if (!assistantId.success || rest.length > 0 || (id !== undefined && !z.guid().safeParse(id).success)) {
    notFound();
  }
  const messages =
    id === undefined
      ? []
      : await (await trialStore()).listMessages(trialUserId(assistantId.data, operator.id), id);
  if (messages === null) notFound();
  return <ConversationView conversationId={id ?? null} messages={messages} />;
}
