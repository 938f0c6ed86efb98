// @vitest-environment jsdom
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { KeyRecord } from "@/sdk/admin/schemas.ts";

const router = { refresh: vi.fn() };
vi.mock("next/navigation", () => ({ useRouter: () => router }));
const { KeyManager } = await import("./key-manager.tsx");

const keyRecord = (overrides: Partial<KeyRecord>): KeyRecord => ({
  id: "key_1",
  id_assistant: "asst_1",
  name: "intranet app",
  prefix: "cka_live_abcd",
  scopes: ["ask", "rag"],
  created_at: "2026-11-01T09:00:00.000Z",
  last_used_at: null,
  expires_at: null,
  revoked_at: null,
  ...overrides,
});

describe("KeyManager", () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it("asks for a scope, without sending anything, when both are unticked", async () => {
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    const user = userEvent.setup();
    render(<KeyManager assistantId="asst_1" keys={[]} />);
    await user.click(screen.getByRole("checkbox", { name: /^ask:/ }));
    await user.click(screen.getByRole("checkbox", { name: /^rag:/ }));
    await user.click(screen.getByRole("button", { name: "Create key" }));
    expect(screen.getByRole("alert")).toHaveProperty("textContent", "Pick at least one scope.×");
    expect(fetchSpy).not.toHaveBeenCalled();
    await user.click(screen.getByRole("button", { name: "Dismiss" }));
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("lists active keys with a Revoke button and revoked ones without", () => {
    render(
      <KeyManager
        assistantId="asst_1"
        keys={[
          keyRecord({}),
          keyRecord({
            id: "key_2",
            name: null,
            prefix: "cka_live_wxyz",
            revoked_at: "2026-11-02T09:00:00.000Z",
          }),
        ]}
      />,
    );
    const [active, revoked] = screen.getAllByTestId("key-row");
    expect(active).toHaveProperty("dataset.state", "active");
    expect(within(active!).getByTestId("key-last-used").textContent).toBe("never used");
    expect(revoked).toHaveProperty("dataset.state", "revoked");
    expect(within(revoked!).getByText("Unnamed key")).toBeTruthy();
    expect(within(revoked!).queryByRole("button")).toBeNull();
    expect(within(active!).getByRole("button").getAttribute("aria-label")).toBe("Revoke intranet app");
    expect(screen.queryByTestId("keys-empty")).toBeNull();
  });
});
