/**
 * Access tokens: real-looking HS256 JWTs signed with a random key made when the emulator starts.
 * Merchants must treat them as opaque strings; only the emulator reads them, with its own (shiftable) clock.
 */
import { errors, jwtVerify, SignJWT } from "jose";
import { ACCESS_TOKEN_TTL_SECONDS, type Mode } from "./config";
import type { Clock } from "./clock";

/** What the emulator knows about a verified access token. */
interface AccessTokenClaims {
  jti: string;
  clientId: string;
  mode: Mode;
  /** Issue time in seconds since the epoch. */
  iat: number;
}

type VerifyResult = { ok: true; claims: AccessTokenClaims } | { ok: false; reason: "expired" | "invalid" };

export interface AccessTokenSigner {
  issue(clientId: string, mode: Mode): Promise<{ token: string; claims: AccessTokenClaims }>;
  verify(token: string): Promise<VerifyResult>;
}

/** Creates a signer with a fresh random HMAC key. Tokens of another emulator instance do not verify. */
export function createAccessTokenSigner(clock: Clock): AccessTokenSigner {
  const keyPromise = crypto.subtle.importKey(
    "raw",
    crypto.getRandomValues(new Uint8Array(32)),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );

  return {
    async issue(clientId, mode) {
      const claims: AccessTokenClaims = { jti: crypto.randomUUID(), clientId, mode, iat: clock.nowSeconds() };
      const token = await new SignJWT({ mode })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject(clientId)
        .setJti(claims.jti)
        .setIssuedAt(claims.iat)
        .setExpirationTime(claims.iat + ACCESS_TOKEN_TTL_SECONDS)
        .sign(await keyPromise);
      return { token, claims };
    },

    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, await keyPromise, {
          algorithms: ["HS256"],
          currentDate: new Date(clock.now()),
          requiredClaims: ["sub", "jti", "iat", "exp"],
        });
        const { sub, jti, iat, mode } = payload;
        if (typeof sub !== "string" || typeof jti !== "string" || typeof iat !== "number") {
          return { ok: false, reason: "invalid" };
        }
        if (mode !== "sandbox" && mode !== "production") return { ok: false, reason: "invalid" };
        return { ok: true, claims: { jti, clientId: sub, mode, iat } };
      } catch (error) {
        return { ok: false, reason: error instanceof errors.JWTExpired ? "expired" : "invalid" };
      }
    },
  };
}
