import { FRAUD_SCORE_FIELDS } from '../../selections.ts';
import { bodyField, type RestRoute } from '../route.ts';

export const fraudRoutes: RestRoute[] = [
  {
    operationId: 'scoreFraud',
    method: 'POST',
    path: '/fraud/score',
    summary:
      'Fraud-risk score and signal flags of the account with this email (token with svc:fraud); 404 no account; ' +
      '429 over the rate or the daily free-tier quota',
    tag: 'Fraud',
    auth: 'bearer',
    document: `query ScoreFraud($email: String!) { score: fraudScore(email: $email) { ${FRAUD_SCORE_FIELDS} } }`,
    variables: { email: bodyField('email') },
    select: 'score',
  },
];
