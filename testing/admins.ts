import { randomBytes, scryptSync } from "node:crypto";
import type { Db } from "../lib/db/client";
import { adminUsers } from "../lib/db/schema";

/**
 * Stores an admin whose hash is scrypt at N = 2^10: checked by the same code as any other (lib/admin/passwords.ts), in
 * a millisecond instead of a second, so that the sign-in limits' tests can make their dozens of attempts.
 * @returns the account's id.
 */
export async function quickAdmin(db: Db, email: string, password: string): Promise<number> {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize("NFKC"), salt, 32, { N: 2 ** 10, r: 8, p: 1 });
  const [row] = await db
    .insert(adminUsers)
    .values({
      email,
      passwordHash: ["scrypt", 2 ** 10, 8, 1, salt.toString("base64"), key.toString("base64")].join("$"),
    })
    .returning({ id: adminUsers.id });
  return row!.id;
}
