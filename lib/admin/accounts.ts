import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { adminUsers } from "../db/schema";
import { hashPassword, MIN_PASSWORD_LENGTH, type HashCost } from "./passwords";

/** The account `npm run dev` creates when there is none yet (never in production; docs/back-office.md, "Admin accounts and sign-in"). */
export const DEVELOPMENT_ADMIN = { email: "admin@example.com", password: "development-only-password" } as const;

/**
 * Creates an admin, or gives an existing one a new password, which signs out their open sessions (the session
 * version goes up, see lib/admin/auth.ts).
 * @param email any case; stored lower-cased.
 * @param cost the password hash's cost; OWASP's unless given (lib/admin/passwords.ts).
 * @throws RangeError for a password shorter than {@link MIN_PASSWORD_LENGTH} characters.
 * @returns the account's id, and whether it was new.
 */
export async function saveAdmin(
  db: Db,
  email: string,
  password: string,
  cost?: HashCost,
): Promise<{ id: number; created: boolean }> {
  if (password.length < MIN_PASSWORD_LENGTH)
    throw new RangeError(`The password must be at least ${MIN_PASSWORD_LENGTH} characters.`);
  const passwordHash = await hashPassword(password, cost);
  const now = new Date();
  const [row] = await db
    .insert(adminUsers)
    .values({ email: email.trim().toLowerCase(), passwordHash })
    .onConflictDoUpdate({
      target: adminUsers.email,
      set: {
        passwordHash,
        passwordChangedAt: now,
        sessionVersion: sql`${adminUsers.sessionVersion} + 1`,
        updatedAt: now,
      },
    })
    .returning({ id: adminUsers.id, created: sql<boolean>`xmax = 0` });
  return { id: row!.id, created: Boolean(row!.created) };
}

/** In development, creates {@link DEVELOPMENT_ADMIN} when the database has no admin at all. @returns whether it did. */
export async function ensureDevelopmentAdmin(db: Db): Promise<boolean> {
  const [any] = await db.select({ id: adminUsers.id }).from(adminUsers).limit(1);
  if (any) return false;
  await saveAdmin(db, DEVELOPMENT_ADMIN.email, DEVELOPMENT_ADMIN.password);
  return true;
}
