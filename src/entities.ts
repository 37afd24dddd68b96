import { AccessToken } from './domains/accounts/access-token.entity.ts';
import { Account } from './domains/accounts/account.entity.ts';
import { SignInEvent } from './domains/accounts/sign-in-event.entity.ts';
import { WebSession } from './domains/accounts/web-session.entity.ts';
import { StreamAccountCountryDay } from './domains/analytics/stream-account-country-day.entity.ts';
import { StreamAccountCountryMonth } from './domains/analytics/stream-account-country-month.entity.ts';
import { StreamAccountDay } from './domains/analytics/stream-account-day.entity.ts';
import { StreamCountryDay } from './domains/analytics/stream-country-day.entity.ts';
import { StreamDay } from './domains/analytics/stream-day.entity.ts';
import { StreamIngestion } from './domains/analytics/stream-ingestion.entity.ts';
import { StreamReleaseCountryDay } from './domains/analytics/stream-release-country-day.entity.ts';
import { StreamReleaseCountryMonth } from './domains/analytics/stream-release-country-month.entity.ts';
import { StreamReleaseDay } from './domains/analytics/stream-release-day.entity.ts';
import { StreamReleaseMonth } from './domains/analytics/stream-release-month.entity.ts';
import { StreamStoreDay } from './domains/analytics/stream-store-day.entity.ts';
import { StreamStoreMonth } from './domains/analytics/stream-store-month.entity.ts';
import { StreamTrackDay } from './domains/analytics/stream-track-day.entity.ts';
import { AudioAnalysis } from './domains/audio/audio-analysis.entity.ts';
import { RegistryRecording } from './domains/audio/registry/registry-recording.entity.ts';
import { RegistryVersion } from './domains/audio/registry/registry-version.entity.ts';
import { CreditTransaction } from './domains/credits/credit-transaction.entity.ts';
import { SandboxControl } from './domains/delivery/adapters/sandbox/sandbox-control.entity.ts';
import { SftpPackage } from './domains/delivery/adapters/sftp/sftp-package.entity.ts';
import { Delivery } from './domains/delivery/delivery.entity.ts';
import { ReleaseJob } from './domains/delivery/release-job.entity.ts';
import { OutboxMail } from './domains/mail/outbox-mail.entity.ts';
import { OAuthModel } from './domains/oauth/oauth-model.entity.ts';
import { Partner } from './domains/partners/partner.entity.ts';
import { AutoReloadSetting } from './domains/payments/auto-reload-setting.entity.ts';
import { CheckoutSession } from './domains/payments/checkout-session.entity.ts';
import { Payment } from './domains/payments/payment.entity.ts';
import { PaymentCustomer } from './domains/payments/payment-customer.entity.ts';
import { SavedCard } from './domains/payments/saved-card.entity.ts';
import { IdempotencyKey } from './domains/releases/idempotency-key.entity.ts';
import { Release } from './domains/releases/release.entity.ts';
import { ReleaseArtist } from './domains/releases/release-artist.entity.ts';
import { ReleaseSnapshot } from './domains/releases/release-snapshot.entity.ts';
import { ReleaseTrack } from './domains/releases/release-track.entity.ts';
import { StoreConnection } from './domains/store-connections/store-connection.entity.ts';
import { StoredFile } from './domains/uploads/stored-file.entity.ts';
import { UploadChunk } from './domains/uploads/upload-chunk.entity.ts';
import { UploadSession } from './domains/uploads/upload-session.entity.ts';
import { EmailChallenge } from './domains/verified-email/email-challenge.entity.ts';
import { WebhookDelivery } from './domains/webhooks/webhook-delivery.entity.ts';
import { WebhookDispatchCursor } from './domains/webhooks/webhook-dispatch-cursor.entity.ts';
import { WebhookEndpoint } from './domains/webhooks/webhook-endpoint.entity.ts';
import { OutboxEvent } from './platform/events/outbox-event.entity.ts';
import { RateLimitBucket } from './platform/rate-limit/rate-limit-bucket.entity.ts';

/**
 * Every entity the ORM knows; a domain adds its entities here. The entity files are imported
 * directly, not through the domains' front doors, so loading the ORM's metadata (the admin CLI, the
 * migrations, each worker's start) runs no domain code: the rule `entities-stand-alone` in
 * .dependency-cruiser.cjs keeps it so.
 */
export const entities = [
  Account,
  AccessToken,
  WebSession,
  SignInEvent,
  StreamDay,
  StreamTrackDay,
  StreamAccountDay,
  StreamStoreDay,
  StreamStoreMonth,
  StreamReleaseDay,
  StreamReleaseMonth,
  StreamCountryDay,
  StreamReleaseCountryDay,
  StreamReleaseCountryMonth,
  StreamAccountCountryDay,
  StreamAccountCountryMonth,
  StreamIngestion,
  AudioAnalysis,
  RegistryRecording,
  RegistryVersion,
  CreditTransaction,
  Delivery,
  ReleaseJob,
  SandboxControl,
  SftpPackage,
  OutboxMail,
  OAuthModel,
  Partner,
  AutoReloadSetting,
  CheckoutSession,
  Payment,
  PaymentCustomer,
  SavedCard,
  Release,
  ReleaseSnapshot,
  ReleaseTrack,
  ReleaseArtist,
  IdempotencyKey,
  StoreConnection,
  StoredFile,
  UploadSession,
  UploadChunk,
  EmailChallenge,
  WebhookEndpoint,
  WebhookDelivery,
  WebhookDispatchCursor,
  OutboxEvent,
  RateLimitBucket,
];
