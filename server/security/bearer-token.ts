/**
 * The token of an `Authorization: Bearer <token>` header, as the API's keys
 * and the metrics token are sent. The scheme name is case-insensitive (RFC
 * 7235 §2.1) and followed by one or more spaces (RFC 6750 §2.1); the token
 * itself is taken exactly. null when the header is missing or of another form.
 */
export function bearerToken(authorization: string | null | undefined): string | null {
  return /^Bearer +(\S+)$/i.exec(authorization?.trim() ?? "")?.[1] ?? null;
}
