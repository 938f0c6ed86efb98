"use client";
/** Deleting a document from the sources page: the one asked about, then the request, and its failure. */
import { useState } from "react";
import type { DocumentRecord } from "@/sdk/admin/schemas.ts";
import { consoleApi } from "./console-api";
import { type ConsoleError, consoleErrorOf } from "./error-banner";

export function useDocumentDeletion(assistantId: string, onDeleted: (documentId: string) => void) {
  const [deleting, setDeleting] = useState<DocumentRecord | null>(null);
  const [error, setError] = useState<ConsoleError | null>(null);

  async function confirmDelete() {
    if (!deleting) return;
    setDeleting(null);
    try {
      await consoleApi.deleteDocument(assistantId, deleting.id);
      onDeleted(deleting.id);
    } catch (failure) {
      setError(consoleErrorOf(failure));
    }
  }

  return {
    deleting,
    askToDelete: setDeleting,
    cancelDelete: () => setDeleting(null),
    confirmDelete,
    error,
    dismissError: () => setError(null),
  };
}
