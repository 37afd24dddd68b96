export { consumeFraudAllowance, type FraudLimits, fraudRules } from './allowance.ts';
export { FLAG_CATEGORIES, FLAG_SEVERITIES } from './rules.ts';
export { type FraudFlag, type FraudScore, SCORE_SEVERITIES, scoreEmail } from './score.ts';
