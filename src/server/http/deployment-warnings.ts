import type { Logger } from 'pino';

/**
 * Set-up mistakes a running server can see from its requests, said once in the log and shown
 * to owners in the dashboard (GET /api/settings/deployment):
 * - requests carry X-Forwarded-For from a proxy TRUST_PROXY does not trust: every visitor
 *   then looks like the proxy, and the per-visitor limits are shared by all of them;
 * - the server is reached over plain http at an address other than this machine's;
 * and one its settings show at start (settingsWarnings):
 * - replies are read (IMAP_URL) without IMAP_AUTHSERV_ID, so no sender is ever shown to pass.
 */
export type DeploymentWarningCode = 'untrusted_proxy' | 'plain_http' | 'replies_unverified';

export const DEPLOYMENT_WARNINGS: Record<DeploymentWarningCode, string> = {
  untrusted_proxy:
    'Requests reach this server through a proxy (they carry X-Forwarded-For), but TRUST_PROXY does not trust it: every visitor looks like the proxy, so the per-visitor limits (10 leads an hour, sign-in attempts) are shared by all of them. Set TRUST_PROXY to the proxy’s address (or to 1 when nothing but the proxy can reach this server) and restart.',
  plain_http:
    'This server is reached over plain http at an address other than this machine’s: passwords and session cookies cross the network unencrypted. Put it behind HTTPS (for example Caddy: docs/operations.md, “Going live”) and set PUBLIC_URL to the https address.',
  replies_unverified:
    'Replies are read from IMAP_URL, but IMAP_AUTHSERV_ID is not set: no Authentication-Results header is believed, so a reply that joins a lead by the sender’s address alone is marked “Sender not verified”. Set IMAP_AUTHSERV_ID to the name your mail host writes at the start of its Authentication-Results header (docs/guide/email.md, “Verified senders”) and restart.',
};

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1)$/i;

export class DeploymentWarnings {
  readonly #seen = new Set<DeploymentWarningCode>();

  constructor(private readonly logger: Logger) {}

  /**
   * Looks at one request (cheap: two header reads): `forwardedFor` is its X-Forwarded-For,
   * `target` the scheme and host it was sent to (public-origin.ts's requestTarget), asked only
   * while a warning is still unseen. Plain values, so this module needs nothing of the request
   * context (which names this class among its dependencies).
   */
  /** What the settings show at start: said at once in the log, and shown to owners. */
  settingsWarnings(settings: { readsReplies: boolean; authservId: string | undefined }): void {
    if (settings.readsReplies && !settings.authservId) this.#add('replies_unverified', {});
  }

  note(request: { viaTrustedProxy: boolean; forwardedFor: string | undefined; target: () => { protocol: string; host: string } }): void {
    if (this.#seen.has('untrusted_proxy') && this.#seen.has('plain_http')) return;
    if (!request.viaTrustedProxy && request.forwardedFor !== undefined)
      this.#add('untrusted_proxy', { forwardedFor: request.forwardedFor.slice(0, 100) });
    const { protocol, host } = request.target();
    const hostname = host.replace(/:\d+$/, '');
    if (protocol === 'http' && hostname !== '' && !LOOPBACK.test(hostname)) this.#add('plain_http', { host: host.slice(0, 100) });
  }

  #add(code: DeploymentWarningCode, context: Record<string, unknown>) {
    if (this.#seen.has(code)) return;
    this.#seen.add(code);
    this.logger.warn({ event: 'deployment_warning', code, ...context }, DEPLOYMENT_WARNINGS[code]);
  }

  list(): { code: DeploymentWarningCode; message: string }[] {
    return [...this.#seen].map((code) => ({ code, message: DEPLOYMENT_WARNINGS[code] }));
  }
}
