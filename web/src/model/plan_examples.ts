// core's model and cluster examples (core/data/plan_examples/), the inputs of `pipesim plan --input`
// and `pipesim simulate --model`: the Memory tab prices a run with one of them. The files are
// bundled as data; their names come from the page's dictionaries.
import deepseek from '../../../core/data/plan_examples/deepseek-v3.json';
import moeOneNode from '../../../core/data/plan_examples/moe-one-node-ep.json';
import smallDense from '../../../core/data/plan_examples/small-dense.json';
import type { Key } from '../i18n';

export interface PlanExample {
  /** The file's name without .json: what the URL carries. */
  id: string;
  name: Key;
  /** The file's JSON text, as the engine reads it. */
  text: string;
}

export const PLAN_EXAMPLES: PlanExample[] = [
  { id: 'deepseek-v3', name: 'planner.example.deepseek', text: JSON.stringify(deepseek) },
  { id: 'small-dense', name: 'planner.example.dense', text: JSON.stringify(smallDense) },
  { id: 'moe-one-node-ep', name: 'planner.example.moeOneNode', text: JSON.stringify(moeOneNode) },
];

export function planExample(id: string): PlanExample | undefined {
  return PLAN_EXAMPLES.find((e) => e.id === id);
}
