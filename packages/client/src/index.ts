export {
  createTributaryClient,
  type ReleaseEvent,
  type TributaryClient,
  type TributaryClientOptions,
} from './client.ts';
export {
  AuthenticationError,
  ConflictError,
  type ErrorDetail,
  type ErrorEnvelope,
  NotFoundError,
  PermissionError,
  RateLimitError,
  TributaryError,
  UnavailableError,
  ValidationError,
} from './errors.ts';
export * from './generated/graphql/graphql.ts';
export type { components, operations, paths } from './generated/rest.ts';
export type { GraphQLRequestOptions } from './graphql.ts';
export { persistedDocuments } from './persisted.ts';
export type { RestClient } from './rest.ts';
export type { RetryPolicy } from './retry.ts';
export type { Observer, Subscription, SubscriptionOptions } from './subscriptions.ts';
export type { UploadSource } from './uploads/sources.ts';
export type { UploadedFile, UploadOptions, UploadProgress, Uploads, UploadType } from './uploads/upload.ts';
export { generateWebhookSecret, signWebhook, type WebhookSignatureInput } from './webhooks.ts';
