import { createHash, randomBytes } from 'node:crypto';
import { generate, generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';

/**
 * Time-based one-time passwords (RFC 6238: 30-second steps, 6 digits, SHA-1, as every
 * authenticator app reads them) and recovery codes. A code is accepted one step either side
 * of now (a phone's clock a little off), and never at or before the last step used: a code
 * seen once cannot be used again, even within its window.
 */
export const TOTP_PERIOD_SECONDS = 30;
const TOLERANCE_SECONDS = TOTP_PERIOD_SECONDS;

export const newTotpSecret = () => generateSecret();

export const otpauthUri = (issuer: string, email: string, secret: string) => generateURI({ issuer, label: email, secret });

/** The URI as an SVG QR code, for an <img> (a data: URL: the page's CSP allows data: images). */
export async function qrCodeDataUrl(uri: string): Promise<string> {
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/** The step a code belongs to when it is right and later than `afterStep`; undefined otherwise. */
export async function verifyTotp(secret: string, code: string, afterStep: number | null, epoch?: number): Promise<number | undefined> {
  if (!/^\d{6}$/.test(code)) return undefined;
  const result = await verify({
    secret,
    token: code,
    epochTolerance: TOLERANCE_SECONDS,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
    ...(epoch === undefined ? {} : { epoch }),
  });
  // The step the code belongs to: its period's start, in periods.
  return result.valid && 'epoch' in result ? Math.floor(result.epoch / TOTP_PERIOD_SECONDS) : undefined;
}

/** The code an authenticator shows at `epoch` (seconds; now by default): for tests and the bench. */
export const totpCode = (secret: string, epoch?: number) => generate({ secret, ...(epoch === undefined ? {} : { epoch }) });

export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'; // no 0/o, 1/l/i: read aloud or typed from paper

/** Ten codes like "k7dm-3xqp-9tfa" (about 59 bits each), shown once; only their hashes are kept. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = randomBytes(12);
    const chars = Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]).join('');
    return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}`;
  });
}

/** A code as typed (any case, spaces or dashes) to its stored hash. */
export const hashRecoveryCode = (code: string) =>
  createHash('sha256')
    .update(code.toLowerCase().replace(/[^a-z0-9]/g, ''))
    .digest('hex');
