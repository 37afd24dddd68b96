import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

/** What an agent product keeps: its registration, its tokens, the verifier of the pending authorization. */
export class MemoryOAuthProvider implements OAuthClientProvider {
  private readonly redirect: () => string;
  /** A client ID metadata document URL: the client registers by URL instead of DCR. */
  clientMetadataUrl: string | undefined;

  constructor(redirect: () => string, clientMetadataUrl?: string) {
    this.redirect = redirect;
    this.clientMetadataUrl = clientMetadataUrl;
  }

  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;

  get redirectUrl() {
    return this.redirect();
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Studio Agent',
      redirect_uris: [this.redirect()],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}
