import { prepareOperation } from '../../../schema/execute.ts';

/** The GraphQL documents the settings pages run, parsed and validated once at start-up. */
export const SETTINGS_OPERATIONS = {
  tokens: prepareOperation(`query SettingsTokens {
    accessTokens { id name kind prefix scopes createdAt lastUsedAt expiresAt status }
  }`),
  createToken:
    prepareOperation(`mutation SettingsCreateToken($name: String!, $scopes: [Scope!], $expires: TokenExpiry) {
    createAccessToken(name: $name, scopes: $scopes, expires: $expires) { token accessToken { id name scopes expiresAt } }
  }`),
  revokeToken: prepareOperation(`mutation SettingsRevokeToken($id: ID!) {
    revokeAccessToken(id: $id) { id status }
  }`),
  apps: prepareOperation(`query SettingsApps {
    connectedApps { id clientId name scopes connectedAt lastUsedAt expiresAt }
  }`),
  disconnectApp: prepareOperation(`mutation SettingsDisconnectApp($id: ID!) {
    disconnectApp(id: $id) { id }
  }`),
  webhooks: prepareOperation(`query SettingsWebhooks {
    webhookEndpoints { id url description active failureCount createdAt disabledAt }
  }`),
  createWebhook: prepareOperation(`mutation SettingsCreateWebhook($url: String!, $description: String) {
    createWebhookEndpointWire(url: $url, description: $description) { endpoint { id url } signingSecret }
  }`),
  setWebhookActive: prepareOperation(`mutation SettingsSetWebhookActive($id: ID!, $active: Boolean) {
    updateWebhookEndpointWire(id: $id, active: $active) { id active }
  }`),
  deleteWebhook: prepareOperation(`mutation SettingsDeleteWebhook($id: ID!) {
    deleteWebhookEndpoint(id: $id) { id }
  }`),
  deliveries: prepareOperation(`query SettingsWebhookDeliveries($endpointId: ID!) {
    webhookDeliveries(endpointId: $endpointId, limit: 50) {
      id eventType status attempts responseStatus latencyMs lastError createdAt
    }
  }`),
};
