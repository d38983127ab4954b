import type { Db } from "../lib/db/client";
import { saveAdmin } from "../lib/admin/accounts";
import type { HashCost } from "../lib/admin/passwords";

/**
 * scrypt at N = 2^10: checked by the same code as any other hash (lib/admin/passwords.ts), in a millisecond instead of
 * a second of a core. For tests whose point is not the cost.
 */
export const QUICK_HASH_COST: HashCost = { N: 2 ** 10, r: 8, p: 1 };

/**
 * Creates an admin (or gives an existing one a new password) as `npm run admin -- create` does, with a hash at
 * {@link QUICK_HASH_COST}, so that the sign-in limits' tests can make their dozens of attempts and the browser tests
 * their sixty sign-ins.
 * @returns the account's id.
 */
export async function quickAdmin(db: Db, email: string, password: string): Promise<number> {
  return (await saveAdmin(db, email, password, QUICK_HASH_COST)).id;
}
