// A real OpenID provider (oidc-provider, certified) for the OAuth *client* tests
// (examples/notes/tests/it/client_auth.rs, toolidl import --url --login, the interop run's
// OAuth leg): everything an MCP client's authorization uses, with a user who logs in and
// consents by themselves.
//
//   node client_provider.mjs     (scripts/auth.sh copies it next to its node_modules)
//
// - Authorization code with PKCE (S256 required, as for every public client): the
//   interaction page logs the user `alice` in and consents at once, redirecting back, so a
//   user agent that follows redirects and keeps cookies plays the user. The first consent
//   for each client grants only `notes:read` of what it asked (a user who unticked
//   `notes:write`), later ones everything asked (a step-up).
// - Dynamic client registration (RFC 7591), open; client ID metadata documents (draft 02;
//   https client ids, fetched with Node's trust, so NODE_EXTRA_CA_CERTS names a private CA);
//   pre-registered clients: `machine` (client credentials, secret `machine-secret`) and
//   `app` (authorization code, public, redirect http://127.0.0.1/callback on any port).
// - Resource indicators (RFC 8707): JWT access tokens (RFC 9068) whose audience is the
//   resource, refresh tokens for clients allowed the grant, RFC 9207 `iss` in responses.
//
// Environment: PROVIDER_PORT (loopback port); PROVIDER_TOKEN_TTL (access token lifetime in
// seconds, default 300); PROVIDER_WRONG_AUDIENCE (resource indicators starting with it get
// tokens for another audience, https://elsewhere.example/mcp: what a client must refuse);
// PROVIDER_FETCH_LOOPBACK=1 lets the provider fetch client ID metadata documents from
// loopback addresses (its protection against server-side request forgery refuses them;
// the tests serve the document on 127.0.0.1).
// Prints "listening <issuer>" once it accepts requests, then one line per token issued:
// "token <grant_type> <client_id> <scope>".
import crypto from 'node:crypto';
import Provider from 'oidc-provider';

const port = Number(process.env.PROVIDER_PORT);
const issuer = `http://127.0.0.1:${port}`;
const ttl = Number(process.env.PROVIDER_TOKEN_TTL ?? 300);
const wrongAudience = process.env.PROVIDER_WRONG_AUDIENCE;
const scopes = ['notes:read', 'notes:write'];

const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'client-tests', use: 'sig', alg: 'RS256' };

// How many authorizations each client has had.
const authorizations = new Map();

const provider = new Provider(issuer, {
  jwks: { keys: [jwk] },
  // The notes scopes are the resource's (getResourceServerInfo below), not OpenID ones.
  clients: [
    {
      client_id: 'machine',
      client_secret: 'machine-secret',
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
      token_endpoint_auth_method: 'client_secret_basic',
    },
    {
      client_id: 'app',
      application_type: 'native',
      grant_types: ['authorization_code', 'refresh_token'],
      redirect_uris: ['http://127.0.0.1/callback'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
  ],
  findAccount: async (ctx, id) => ({ accountId: id, claims: async () => ({ sub: id }) }),
  interactions: { url: (ctx, interaction) => `/interaction/${interaction.uid}` },
  issueRefreshToken: async (ctx, client) => client.grantTypeAllowed('refresh_token'),
  pkce: { required: () => true },
  ...(process.env.PROVIDER_FETCH_LOOPBACK === '1'
    ? { fetch: (url, options) => globalThis.fetch(url, { ...options, dispatcher: undefined }) }
    : {}),
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    registration: { enabled: true },
    clientIdMetadataDocument: { enabled: true, ack: 'draft-02' },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => undefined,
      useGrantedResource: () => true,
      getResourceServerInfo: (ctx, resource) => ({
        scope: scopes.join(' '),
        audience: wrongAudience && resource.startsWith(wrongAudience) ? 'https://elsewhere.example/mcp' : resource,
        accessTokenTTL: ttl,
        accessTokenFormat: 'jwt',
        jwt: { sign: { alg: 'RS256' } },
      }),
    },
  },
});

// The user's consent: everything asked for, except notes:write the first time a client asks.
async function consent(details) {
  const { params, session, grantId } = details;
  const count = (authorizations.get(params.client_id) ?? 0) + 1;
  authorizations.set(params.client_id, count);
  const asked = String(params.scope ?? '').split(' ').filter((s) => scopes.includes(s));
  const granted = count === 1 ? asked.filter((s) => s === 'notes:read') : asked;
  const rejected = asked.filter((s) => !granted.includes(s));
  const grant = grantId
    ? await provider.Grant.find(grantId)
    : new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
  for (const resource of [params.resource].flat().filter(Boolean)) {
    if (granted.length) grant.addResourceScope(resource, granted.join(' '));
    if (rejected.length) grant.rejectResourceScope(resource, rejected.join(' '));
  }
  return { consent: { grantId: await grant.save() } };
}

// The user: logs in as alice and consents as soon as asked.
provider.use(async (ctx, next) => {
  if (ctx.method === 'GET' && ctx.path.startsWith('/interaction/')) {
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    const result = details.prompt.name === 'login'
      ? { login: { accountId: 'alice' } }
      : await consent(details);
    // Writes the redirect back (and the cookie resuming the authorization) itself.
    ctx.respond = false;
    await provider.interactionFinished(ctx.req, ctx.res, result, { mergeWithLastSubmission: true });
    return;
  }
  await next();
});

provider.on('grant.success', (ctx) => {
  const body = ctx.oidc.body ?? {};
  const scope = ctx.body?.scope ?? '';
  console.log(`token ${body.grant_type} ${ctx.oidc.client?.clientId} ${scope}`);
});

provider.listen(port, '127.0.0.1', () => {
  console.log(`listening ${issuer}`);
});
