import type { Scenario } from '../scenarios';
import { seededRandom } from './random';
import { startReliabilityStack } from './reliability-stack';
import { finalVerdict, type Verdict } from './verdict';

export interface ScenarioReport extends Verdict {
  name: string;
  seed: number;
  passed: boolean;
}

/** One run of a scenario on a fresh stack: the trouble, then the final verdict. */
export async function runScenario(scenario: Scenario, seed: number): Promise<ScenarioReport> {
  const stack = await startReliabilityStack({ orders: scenario.orders, seed });
  try {
    const seen = await scenario.run(stack, seededRandom(seed));
    const verdict = await finalVerdict(stack, { connection: scenario.connection });
    const problems = [...seen, ...verdict.problems];
    return { name: scenario.name, seed, ...verdict, problems, passed: problems.length === 0 };
  } finally {
    await stack.close();
  }
}
