// `npm run bench:sign-in`: how fast a server instance's checkouts stay while 20 attackers sign in without pause with
// made-up e-mails (each a full scrypt password check), on one pool of five connections like the shop's own. Seven
// rounds of an idle run and an attacked one, in alternating order, so a change in the machine's other load or a warming
// cache falls on both alike; the verdict is the median round's ratio of the checkouts' p95, attacked over idle, against
// the budget of 2. What must hold whatever the speed (the connections sign-ins may take) is tested in
// lib/admin/sign-in-load.test.ts. Takes about a minute on 2 cores.
import { Pool } from "pg";
import { createDb } from "../lib/db/client";
import { attack, checkouts } from "../testing/sign-in-load";
import { migrate, startEmbeddedDatabase, stopAll } from "../scripts/servers";
import { summary } from "./stats";

const POOL_SIZE = 5;
const ROUNDS = 7;
const CHECKOUTS = 100;
const BUDGET = 2;

const database = await startEmbeddedDatabase();
await migrate(database.url);
const pool = new Pool({ connectionString: database.url, max: POOL_SIZE, connectionTimeoutMillis: 5_000 });
const db = createDb(pool);
try {
  await checkouts(db, CHECKOUTS); // warm-up: connections opened, statements planned
  const underAttack = async () => {
    const attackers = attack(db);
    try {
      await new Promise((resolve) => setTimeout(resolve, 300)); // the attack at full strength before measuring
      return await checkouts(db, CHECKOUTS);
    } finally {
      if ((await attackers.stop()) === 0) throw new Error("no password was checked: the attack never ran");
    }
  };
  const rounds: { idle: number; attacked: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const idleFirst = round % 2 === 0;
    const first = idleFirst ? await checkouts(db, CHECKOUTS) : await underAttack();
    const second = idleFirst ? await underAttack() : await checkouts(db, CHECKOUTS);
    const [idle, attacked] = idleFirst ? [first, second] : [second, first];
    rounds.push({ idle: summary(idle).p95, attacked: summary(attacked).p95 });
  }
  const ratios = rounds.map((round) => round.attacked / round.idle).sort((a, b) => a - b);
  const median = ratios[Math.floor(ratios.length / 2)]!;
  console.log(
    `Checkout p95 per round, idle / beside 20 attackers signing in: ` +
      `${rounds.map((r) => `${r.idle.toFixed(1)} / ${r.attacked.toFixed(1)} ms`).join(", ")}`,
  );
  console.log(`Median ratio ${median.toFixed(2)} (budget ${BUDGET}): ${median <= BUDGET ? "within" : "OVER"} budget`);
  if (median > BUDGET) process.exitCode = 1;
} finally {
  await pool.end();
  await stopAll();
  await database.stop();
}
