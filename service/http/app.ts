/** The service's HTTP edge: request ids, problem-details errors, and the route groups mounted on one app. */
import { Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";
import { HttpProblem, requestIdFor } from "../../sdk/core/index.ts";
import { isStorableText } from "../../sdk/core/storable-text.ts";
import type { VerifiedKey } from "../store/keys.ts";
import { unexpectedProblem } from "./problem.ts";

export interface AppVariables {
  requestId: string;
  /** Set by the public API's key guard before any public handler runs. */
  apiKey: VerifiedKey;
}

export type ServiceHono = Hono<{ Variables: AppVariables }>;

export interface AppLogger {
  error(message: string, details: Record<string, unknown>): void;
}

export function createHttpApp(logger: AppLogger, mount: (app: ServiceHono) => void): ServiceHono {
  const app: ServiceHono = new Hono<{ Variables: AppVariables }>();

  app.use(async (context, next) => {
    const requestId = requestIdFor(context.req.raw);
    context.set("requestId", requestId);
    await next();
    context.res.headers.set("X-Request-ID", requestId);
  });

  // Nothing the service sends is a page: no browser may run, frame or embed it elsewhere.
  app.use(
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'none'"],
      },
      xFrameOptions: "DENY",
      referrerPolicy: "no-referrer",
      crossOriginResourcePolicy: "same-origin",
      crossOriginOpenerPolicy: false,
      originAgentCluster: false,
      xDnsPrefetchControl: false,
      xDownloadOptions: false,
      xPermittedCrossDomainPolicies: false,
      xXssProtection: false,
      strictTransportSecurity: false,
    }),
  );
  app.use(async (context, next) => {
    await next();
    if (servedOverHttps(context.req.raw)) context.res.headers.set("Strict-Transport-Security", hsts);
  });

  // Ids in paths reach the database; one it could not store cannot name anything.
  app.use(async (context, next) => {
    if (!pathSegments(context.req.raw.url).every(isStorableText)) {
      throw new HttpProblem(404, "not_found", "No resource has an id with U+0000 or an unpaired surrogate.");
    }
    await next();
  });

  app.get("/healthz", (context) => context.json({ status: "ok" }));
  mount(app);

  app.notFound((context) =>
    new HttpProblem(404, "not_found", `No route for ${context.req.method} ${context.req.path}.`).toResponse(
      context.get("requestId"),
    ),
  );

  app.onError((error, context) => {
    const requestId = context.get("requestId") ?? requestIdFor(context.req.raw);
    if (error instanceof HttpProblem) return error.toResponse(requestId);
    logger.error("unhandled error", {
      requestId,
      path: context.req.path,
      error: String(error),
      stack: error.stack,
    });
    return unexpectedProblem(error).toResponse(requestId);
  });

  return app;
}

const hsts = "max-age=63072000; includeSubDomains";

/** Over TLS, ended here or at a proxy in front that says so (a header only a browser on http could forge, where HSTS is ignored). */
function servedOverHttps(request: Request): boolean {
  return new URL(request.url).protocol === "https:" || request.headers.get("X-Forwarded-Proto") === "https";
}

/** The decoded segments of a URL's path; a segment that is not valid percent-encoding stays as sent. */
function pathSegments(url: string): string[] {
  return new URL(url).pathname.split("/").map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch (error) {
      if (error instanceof URIError) return segment;
      throw error;
    }
  });
}
