import { type ConnectedApp, disconnectApp, listConnectedApps } from '../../src/domains/oauth/index.ts';
import { builder, MCP } from '../builder.ts';
import { requirePrincipal } from '../context.ts';

const ConnectedAppRef = builder.objectRef<ConnectedApp>('ConnectedApp').implement({
  description: 'An app (an OAuth client, such as an agent product) you approved to act on your account.',
  fields: (t) => ({
    id: t.exposeID('grantId', { description: 'The grant: disconnecting it ends the app’s access.' }),
    clientId: t.exposeID('clientId', {
      description: 'The app’s OAuth client id (a URL for CIMD clients).',
    }),
    name: t.exposeString('name', { description: 'The name the app registered with.' }),
    scopes: t.exposeStringList('scopes', { description: 'What you allowed it to do.' }),
    connectedAt: t.expose('connectedAt', { type: 'DateTime', description: 'When you approved it.' }),
    lastUsedAt: t.expose('lastUsedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When one of its access tokens was last used (minute resolution).',
    }),
    expiresAt: t.expose('expiresAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the approval lapses unless the app keeps refreshing it.',
    }),
  }),
});

const DisconnectedRef = builder.objectRef<{ id: string; disconnected: true }>('DisconnectedApp').implement({
  description: 'What a disconnection ended.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The grant that was ended.' }),
    disconnected: t.exposeBoolean('disconnected', { description: 'Always true.' }),
  }),
});

builder.queryField('connectedApps', (t) =>
  t.field({
    type: [ConnectedAppRef],
    description: 'Apps you approved through OAuth, newest first.',
    authScopes: MCP,
    resolve: (_root, _args, context) => listConnectedApps(context.em, requirePrincipal(context).accountId),
  }),
);

builder.mutationField('disconnectApp', (t) =>
  t.field({
    type: DisconnectedRef,
    description:
      'Ends an app’s access: its grant and refresh tokens are deleted and its access tokens revoked; the app’s next call fails.',
    authScopes: MCP,
    args: { id: t.arg.id({ required: true, validate: { minLength: 1, maxLength: 100 } }) },
    resolve: async (_root, args, context) => {
      await disconnectApp(context.em, requirePrincipal(context).accountId, String(args.id), async (ids) => {
        await Promise.all(ids.map((id) => context.app.verifiedTokens.revoked(id)));
      });
      return { id: String(args.id), disconnected: true as const };
    },
  }),
);
