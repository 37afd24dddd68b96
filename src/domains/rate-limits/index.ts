export {
  type ApplicableLimit,
  RATE_LIMIT_ACTIONS,
  RATE_LIMIT_KEYS,
} from './applicable-limit.ts';
export { limitsOfCaller } from './limits-of-caller.ts';
export { type RateLimitStatus, readRateLimits } from './read-rate-limits.ts';
