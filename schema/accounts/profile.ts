import { type Profile, readProfile } from '../../src/domains/accounts/index.ts';
import { builder, MCP } from '../builder.ts';
import { requirePrincipal } from '../context.ts';

export const ProfileRef = builder.objectRef<Profile>('Profile').implement({
  description: 'The account holder behind the token.',
  fields: (t) => ({
    id: t.exposeID('id'),
    email: t.exposeString('email'),
    firstName: t.exposeString('firstName', { nullable: true }),
    lastName: t.exposeString('lastName', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    avatarUrl: t.string({
      nullable: true,
      description: 'A signed, short-lived URL of the avatar image; null when the account has none.',
      resolve: (account, _args, context) =>
        account.avatarKey
          ? context.app.storage.signedDownloadUrl(account.avatarKey, {
              expiresInSeconds: 3600,
              contentType: 'image/png',
            })
          : null,
    }),
    isInsider: t.exposeBoolean('isInsider'),
    isPatron: t.exposeBoolean('isPatron', { description: 'Legacy flag kept alongside isInsider.' }),
    isAdmin: t.exposeBoolean('isAdmin'),
  }),
});

builder.queryField('me', (t) =>
  t.field({
    type: ProfileRef,
    authScopes: MCP,
    description: 'The profile of the account that owns the token.',
    resolve: (_root, _args, context) => {
      const { accountId } = requirePrincipal(context);
      return context.app.profiles.read(accountId, () => readProfile(context.em, accountId));
    },
  }),
);
