/**
 * The account page's two-factor section (set up, turn off, recovery codes). A placeholder
 * until two-factor lands: the account page renders it in its place.
 */
export function TwoFactorSection() {
  return null;
}
