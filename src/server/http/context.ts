import type { ApiKeyScope } from '#shared/schemas/api-keys';
import type { CurrentUser } from '#shared/schemas/auth';
import type { Db } from '../db/client.ts';
import type { AppDeps } from '../deps.ts';
import type { DeploymentWarnings } from './deployment-warnings.ts';
import type { WebsitePages } from './website-pages.ts';

/** What createApp adds to the deps it is handed: parts of the HTTP layer that routes reach too. */
export type AppParts = {
  /** Set-up mistakes seen in requests (a proxy not trusted, plain http from afar), for owners. */
  deploymentWarnings?: DeploymentWarnings;
  /** The served public pages' words (Settings → Website); undefined when the client is not built. */
  websitePages?: WebsitePages;
};

export type AppEnv = {
  Variables: {
    requestId: string;
    deps: AppDeps & AppParts;
    clientIp: string;
    /** The socket's peer is a trusted proxy (TRUST_PROXY): its X-Forwarded-* headers count. */
    viaTrustedProxy: boolean;
    /** The open database (set by withDatabase on every /api route but /api/health). */
    db: Db;
    /** Set by requireUser on admin routes (the key's maker when an API key is used). */
    user: CurrentUser;
    /** Set when the request is authorised by an API key (auth/api-key-auth.ts), never with a session. */
    apiKey: { id: string; name: string; scopes: readonly ApiKeyScope[] } | undefined;
  };
};
