export {
  CHALLENGE_QUEUE,
  type ChallengeJob,
  type ClaimedToken,
  challengeQueue,
  claimCode,
  codeKey,
  issueChallenge,
  requestChallenge,
  sweepEmailChallenges,
} from './challenges.ts';
