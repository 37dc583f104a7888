// A deterministic clock for the async work of corpus and fuzz models. Real
// timers race: two 1 ms waits fire in one turn or in two depending on how the
// OS schedules the process, and that order decides where React writes a value
// shared by two async components first, so the same model could decode two
// ways (fuzz seed 22144, on stock React as on contrail). Here work waits a
// number of steps instead. A step settles its waiters together, in one turn,
// in a fixed order; steps are far enough apart that a renderer has done all
// the work one step started before the next step settles anything: each step
// is ROUNDS rounds of a 0 ms timer then an immediate, and renderers schedule
// their work with the same two (0 ms timers fire in the order they were set,
// immediates too), so a renderer's chain of n macrotasks ends within n rounds.

// Deeper than any chain of macrotasks a step starts in either renderer
// (a component's row, the promises in its props, nested ones, a flush).
const ROUNDS = 6;

interface Waiter {
  step: number;
  order: number;
  settle: () => void;
}

let stepsDone = 0;
let waiters: Waiter[] = [];
let ticking = false;

const timer = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
const immediate = () => new Promise<void>((resolve) => (typeof setImmediate === "function" ? setImmediate(resolve) : setTimeout(resolve, 0)));

async function tick(): Promise<void> {
  ticking = true;
  while (waiters.length > 0) {
    for (let round = 0; round < ROUNDS; round++) {
      await timer();
      await immediate();
    }
    stepsDone++;
    // A stable sort: waiters of equal order settle in the order they started waiting.
    const due = waiters.filter((waiter) => waiter.step <= stepsDone).sort((a, b) => a.order - b.order);
    waiters = waiters.filter((waiter) => waiter.step > stepsDone);
    for (const waiter of due) waiter.settle();
  }
  ticking = false;
}

/**
 * Settles after `steps` steps (0: in a microtask, within the render's first
 * tick), before waiters of the same step with a higher `order`.
 */
export function afterSteps(steps: number, order = 0): Promise<void> {
  if (steps === 0) return Promise.resolve();
  return new Promise((settle) => {
    waiters.push({ step: stepsDone + steps, order, settle });
    if (!ticking) void tick();
  });
}

/** `value`, after `steps` steps. */
export async function later<T>(value: T, steps = 1, order = 0): Promise<T> {
  await afterSteps(steps, order);
  return value;
}
