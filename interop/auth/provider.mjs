// A real OpenID provider (oidc-provider, certified) for the authorization tests of
// examples/notes: client-credentials tokens for a resource indicator (RFC 8707), issued as
// JWT access tokens (RFC 9068) signed with the keys of the JWK set the test wrote.
//
//   node provider.mjs     (scripts/auth.sh copies it next to its node_modules)
//
// Environment: PROVIDER_PORT (loopback port), PROVIDER_JWKS (a file holding a private JWK
// set; the first key signs), PROVIDER_RESOURCE_PREFIX (resource indicators it issues JWTs
// for start with it; others get opaque tokens, checked by introspection).
// Prints "listening <issuer>" once it accepts requests, then "fetched /jwks" on each fetch
// of its key set (the test counts them).
import fs from 'node:fs';
import Provider from 'oidc-provider';

const port = Number(process.env.PROVIDER_PORT);
const issuer = `http://127.0.0.1:${port}`;
const jwks = JSON.parse(fs.readFileSync(process.env.PROVIDER_JWKS, 'utf8'));
const jwtPrefix = process.env.PROVIDER_RESOURCE_PREFIX ?? 'http://127.0.0.1:';
const scopes = ['notes:read', 'notes:write'];

const provider = new Provider(issuer, {
  jwks,
  scopes,
  clients: [
    {
      // What the MCP client uses: client credentials, any of the notes scopes.
      client_id: 'notes-client',
      client_secret: 'notes-client-secret',
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
      token_endpoint_auth_method: 'client_secret_basic',
      scope: scopes.join(' '),
    },
    {
      // Another client: its tokens have another subject.
      client_id: 'other-client',
      client_secret: 'other-client-secret',
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
      token_endpoint_auth_method: 'client_secret_basic',
      scope: scopes.join(' '),
    },
    {
      // What a resource server introspecting opaque tokens authenticates as.
      client_id: 'notes-server',
      client_secret: 'notes-server-secret',
      grant_types: [],
      redirect_uris: [],
      response_types: [],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    introspection: { enabled: true },
    resourceIndicators: {
      enabled: true,
      // A token is always for the resource the client names.
      defaultResource: () => undefined,
      useGrantedResource: () => true,
      getResourceServerInfo: (ctx, resource) => ({
        scope: scopes.join(' '),
        audience: resource,
        accessTokenTTL: 300,
        accessTokenFormat: resource.startsWith(jwtPrefix) ? 'jwt' : 'opaque',
        jwt: { sign: { alg: 'RS256' } },
      }),
    },
  },
});

provider.use(async (ctx, next) => {
  if (ctx.path === '/jwks') console.log('fetched /jwks');
  await next();
});

provider.listen(port, '127.0.0.1', () => {
  console.log(`listening ${issuer}`);
});
