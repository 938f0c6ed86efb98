"use client";
/** Catches a failed load or render of evidence and shows the fallback instead of unmounting the chat. */
import { Component, type ReactNode } from "react";

interface EvidenceBoundaryProps {
  fallback(error: unknown): ReactNode;
  children: ReactNode;
}

interface EvidenceBoundaryState {
  failed: boolean;
  error: unknown;
}

/** Remount it (a new `key`) to try again. */
export class EvidenceBoundary extends Component<EvidenceBoundaryProps, EvidenceBoundaryState> {
  override state: EvidenceBoundaryState = { failed: false, error: null };

  static getDerivedStateFromError(error: unknown): EvidenceBoundaryState {
    return { failed: true, error };
  }

  override render(): ReactNode {
    return this.state.failed ? this.props.fallback(this.state.error) : this.props.children;
  }
}
