import { AccessToken, Account, SignInEvent, WebSession } from './domains/accounts/index.ts';
import { analyticsEntities } from './domains/analytics/entities.ts';
import { AudioAnalysis, RegistryRecording, RegistryVersion } from './domains/audio/index.ts';
import { CreditTransaction } from './domains/credits/credit-transaction.entity.ts';
import { SandboxControl, SftpPackage } from './domains/delivery/adapters/index.ts';
import { deliveryEntities } from './domains/delivery/index.ts';
import { OutboxMail } from './domains/mail/index.ts';
import { OAuthModel } from './domains/oauth/index.ts';
import { Partner } from './domains/partners/index.ts';
import { AutoReloadSetting } from './domains/payments/auto-reload-setting.entity.ts';
import { paymentEntities } from './domains/payments/entities.ts';
import {
  IdempotencyKey,
  Release,
  ReleaseArtist,
  ReleaseSnapshot,
  ReleaseTrack,
} from './domains/releases/index.ts';
import { StoreConnection } from './domains/store-connections/index.ts';
import { StoredFile, UploadChunk, UploadSession } from './domains/uploads/index.ts';
import { EmailChallenge } from './domains/verified-email/index.ts';
import { webhookEntities } from './domains/webhooks/entities.ts';
import { OutboxEvent } from './platform/events/outbox-event.entity.ts';
import { RateLimitBucket } from './platform/rate-limit/rate-limit-bucket.entity.ts';

/** Every entity the ORM knows; a domain adds its entities here. */
export const entities = [
  Account,
  AccessToken,
  CreditTransaction,
  AutoReloadSetting,
  StoredFile,
  UploadSession,
  UploadChunk,
  Release,
  ReleaseSnapshot,
  ReleaseTrack,
  ReleaseArtist,
  IdempotencyKey,
  AudioAnalysis,
  RegistryRecording,
  RegistryVersion,
  RateLimitBucket,
  OutboxEvent,
  ...deliveryEntities,
  SandboxControl,
  SftpPackage,
  ...webhookEntities,
  ...analyticsEntities,
  OAuthModel,
  WebSession,
  SignInEvent,
  ...paymentEntities,
  Partner,
  OutboxMail,
  EmailChallenge,
  StoreConnection,
];
