"use client";
import { Component, createElement as h, type ReactNode } from "react";

type State = { error: (Error & { digest?: string }) | null };

/** Shows what went wrong below it; in production a server error carries only its digest. */
export class ErrorBoundary extends Component<{ children?: ReactNode }, State> {
  state: State = { error: null };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return h("p", { role: "alert", id: "error-boundary" }, "This part failed to load (digest " + error.digest + ").");
  }
}
