export { evaluateRules } from './evaluate.ts';
export { hasErrors } from './issues.ts';
export { isAiDeclared, normaliseSubmission } from './normalise.ts';
export { prepareForSubmission } from './prepare.ts';
