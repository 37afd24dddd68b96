export { type ConnectedApp, disconnectApp, listConnectedApps } from './connected-apps.ts';
export { loadOAuthKeys, type OAuthKeys } from './keys.ts';
export { modelKey, type OAuthAdapter, oauthAdapterClass } from './model-store.ts';
export { mcpResourceUrl, OAUTH_SCOPE } from './resource.ts';
export { sweepOAuth } from './sweep.ts';
