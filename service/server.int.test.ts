import { afterAll, describe, expect, it } from "vitest";
import { type SpawnedService, spawnService } from "./testing/spawn-service.ts";

describe("cka serve", () => {
  let service: SpawnedService | undefined;
  afterAll(async () => {
    await service?.stop("SIGKILL");
  });

  it("answers /healthz with a request id and stops cleanly on SIGTERM", async () => {
    service = await spawnService();
    const response = await fetch(`${service.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
    expect(response.headers.get("X-Request-ID")).toMatch(/^req_/);
    expect(await service.stop("SIGTERM")).toBe(0);
  });
});
