"use client";
/** A drop zone for files: whether files are dragged over it, and the handlers to spread onto it. */
import { type DragEvent, useState } from "react";

export function useFileDrop(onFiles: (files: File[]) => void) {
  const [dragging, setDragging] = useState(false);
  const dropHandlers = {
    onDragEnter(event: DragEvent<HTMLElement>) {
      event.preventDefault();
      setDragging(true);
    },
    onDragOver(event: DragEvent<HTMLElement>) {
      event.preventDefault();
    },
    onDragLeave(event: DragEvent<HTMLElement>) {
      const into = event.relatedTarget;
      // Leaving for one of its own children is not leaving the zone.
      if (!(into instanceof Node && event.currentTarget.contains(into))) setDragging(false);
    },
    onDrop(event: DragEvent<HTMLElement>) {
      event.preventDefault();
      setDragging(false);
      onFiles([...event.dataTransfer.files]);
    },
  };
  return { dragging, dropHandlers };
}
