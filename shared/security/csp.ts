/**
 * The renderer's Content Security Policy (DESIGN §2): its own scripts only, no inline script, no
 * plugins, no framing, no form posts. The Electron session sets it on every response and the
 * loopback host sends it in browser mode, so both transports enforce one policy.
 */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";
