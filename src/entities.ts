import { AccessToken } from './domains/accounts/access-token.entity.ts';
import { Account } from './domains/accounts/account.entity.ts';
import { CreditTransaction } from './domains/credits/credit-transaction.entity.ts';
import { StoredFile } from './domains/uploads/stored-file.entity.ts';
import { UploadChunk, UploadSession } from './domains/uploads/upload-session.entity.ts';

/** Every entity the ORM knows; a domain adds its entities here. */
export const entities = [Account, AccessToken, CreditTransaction, StoredFile, UploadSession, UploadChunk];
