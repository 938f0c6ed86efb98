/** The browser's one route to the service: the SDK handler holds the key, checks the user and ownership. */
import { serviceHandler } from "@/lib/service-handler";

export function GET(request: Request): Promise<Response> {
  return serviceHandler().GET(request);
}

export function POST(request: Request): Promise<Response> {
  return serviceHandler().POST(request);
}

export function PATCH(request: Request): Promise<Response> {
  return serviceHandler().PATCH(request);
}

export function DELETE(request: Request): Promise<Response> {
  return serviceHandler().DELETE(request);
}
