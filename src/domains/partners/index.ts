export { type AuthorizationCodes, NO_AUTHORIZATION_CODES } from './authorization-codes.ts';
export { createPartner, disablePartner, listPartners, partnerView } from './manage-partners.ts';
export { attributedProvenance } from './provenance.ts';
export {
  authorizePartnerAccount,
  createPartnerAccount,
  PARTNER_CALLS_PER_IP,
  type PartnerCode,
} from './provision.ts';
