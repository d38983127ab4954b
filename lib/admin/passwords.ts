import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

/**
 * Admin passwords, hashed with scrypt (memory-hard, in Node's own crypto) and a random salt per password. The
 * parameters travel inside each hash, so they can be raised later without invalidating stored passwords:
 * `scrypt$<N>$<r>$<p>$<salt, base64>$<hash, base64>`. N = 2^17, r = 8, p = 1 is OWASP's recommendation
 * (128 MB and about half a second here: cheap for a sign-in, ruinous for a guesser).
 */
const COST: HashCost = { N: 2 ** 17, r: 8, p: 1 };

/** scrypt's cost parameters: N (a power of two), r and p. */
export interface HashCost {
  N: number;
  r: number;
  p: number;
}
const KEY_BYTES = 32;

/** The least a password may be. */
export const MIN_PASSWORD_LENGTH = 12;

function derive(password: string, salt: Buffer, { N, r, p }: HashCost): Promise<Buffer> {
  // scrypt needs 128·N·r bytes; Node's default ceiling (32 MB) is below OWASP's parameters.
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, KEY_BYTES, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/**
 * Hashes a password for storage, at OWASP's cost unless given another: tests that sign in many times give a cheaper
 * one (a password is checked at the cost its own hash names).
 * @returns `scrypt$N$r$p$salt$hash`.
 */
export async function hashPassword(password: string, cost: HashCost = COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return ["scrypt", cost.N, cost.r, cost.p, salt.toString("base64"), key.toString("base64")].join("$");
}

/**
 * Whether `password` is the one `stored` was made from, compared in constant time. A malformed `stored` value is
 * "no", never an exception.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const cost = { N: Number(N), r: Number(r), p: Number(p) };
  if (![cost.N, cost.r, cost.p].every(Number.isSafeInteger) || cost.N > 2 ** 20) return false;
  const expected = Buffer.from(hash, "base64");
  const actual = await derive(password, Buffer.from(salt, "base64"), cost);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

let decoy: Promise<string> | undefined;
/** A hash of a random password, checked against when the e-mail is unknown, so that both cases take as long. */
export const decoyHash = (): Promise<string> => (decoy ??= hashPassword(randomBytes(16).toString("hex")));
