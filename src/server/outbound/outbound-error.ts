/**
 * Why a request for a URL someone typed did not get an answer. The message is written for
 * the person who typed it (an account page shows it as it is): plain words, the host at most,
 * never the path, the query or a credential, which can hold a calendar's secret token.
 */
export type OutboundReason = 'bad_url' | 'blocked_address' | 'dns' | 'timeout' | 'network' | 'tls' | 'too_large' | 'too_many_redirects';

export class OutboundError extends Error {
  override readonly name = 'OutboundError';

  constructor(
    readonly reason: OutboundReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** "10 seconds", "1 second", "0.5 seconds". */
export function seconds(ms: number): string {
  const s = Number((ms / 1000).toFixed(1));
  return `${s} second${s === 1 ? '' : 's'}`;
}

/** "5 MB", "100 KB", "512 bytes". */
export function size(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KB`;
  return `${bytes} bytes`;
}
