/** sdk/server: the host-side half of the SDK. It holds the API key; never import it from browser code. */

export {
  type AuthenticatedUser,
  createServiceHandler,
  type OpenServiceStore,
  type ServiceHandler,
  type ServiceHandlerConfig,
} from "./create-service-handler.ts";
export { createMemoryServiceStore } from "./memory-service-store.ts";
export {
  type AskStream,
  createServiceClient,
  type PdfSlice,
  type ServedImage,
  type ServiceCallOptions,
  type ServiceClient,
  type ServiceClientOptions,
} from "./service-client.ts";
export { problemFromServiceError } from "./service-problem.ts";
export type {
  Conversation,
  SaveAnswerOptions,
  ServiceStore,
  StoredMessage,
  StoredReference,
} from "./service-store.ts";
export {
  serviceStoreMigrationSql,
  serviceStoreSql,
  serviceStoreStatements,
  serviceStoreTables,
} from "./sql/service-store-schema.ts";
export {
  createSqlServiceStore,
  type SqlQueryClient,
  type SqlServiceStore,
  type SqlServiceStoreOptions,
} from "./sql-service-store.ts";
