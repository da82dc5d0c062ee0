/**
 * One character for each 6 bits: base64url's alphabet (RFC 4648, section 5). ASCII, so one byte a
 * character in a property value.
 */
export const SIX_BITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
