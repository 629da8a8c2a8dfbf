// The door of options: the typed numeric settings and their rules.
export { checkedNumber, describeRule, numberProblem, NUMERIC_RULES, type NumericRule } from './numeric-rules.ts';
