import { type GraphQLType, getNamedType, isInputObjectType, isInterfaceType, isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { getSchema } from '../../schema/index.ts';

/**
 * Id-like names that stay String because they are not ids of the service's objects: the client's own
 * conversation key, the payment provider's ids, the stores' artist ids, and a sentence about store ids.
 * (Store, distributor, language and role ids are the catalogue's numbers, Int as the contract has them.)
 */
const FOREIGN_IDS = new Set([
  'ArtistProfile.dsponeArtistId',
  'ArtistProfile.dsptwoArtistId',
  'ArtistProfile.dspthreeArtistId',
  'ArtistProfile.dspfourArtistId',
  'DraftInput.conversationId',
  'GenerateCoverArtInput.conversationId',
  'SubmitReleaseInput.conversationId',
  'Release.conversationId',
  'Mutation.acrCheck(conversationId)',
  'Mutation.detectAudioAi(conversationId)',
  'HostedCreditCheckout.sessionId',
  'Mutation.setAutoReload(paymentMethodId)',
  'StoreSelectionSemantics.defaultStoreIds',
]);

const ID_LIKE = /^(id|ids)$|Ids?$|_ids?$/;
const isString = (type: GraphQLType) => getNamedType(type)?.name === 'String';

/** Every field and argument of the public schema with an id-like name whose type is String. */
function stringIds(): string[] {
  const found: string[] = [];
  for (const type of Object.values(getSchema().getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    if (!isObjectType(type) && !isInterfaceType(type) && !isInputObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      if (ID_LIKE.test(field.name) && isString(field.type)) found.push(`${type.name}.${field.name}`);
      for (const arg of 'args' in field ? field.args : []) {
        if (ID_LIKE.test(arg.name) && isString(arg.type))
          found.push(`${type.name}.${field.name}(${arg.name})`);
      }
    }
  }
  return found;
}

describe('ids of the service’s own objects are ID', () => {
  it('types no id-like field or argument String, unless it is another party’s id', () => {
    expect(stringIds().filter((name) => !FOREIGN_IDS.has(name))).toEqual([]);
  });

  it('has MetadataRule.id, the bundles’ packageId and the OAuth clientId as ID', () => {
    const schema = getSchema();
    const fieldType = (type: string, field: string) =>
      String(
        (schema.getType(type) as { getFields(): Record<string, { type: unknown }> }).getFields()[field]?.type,
      );
    expect(fieldType('MetadataRule', 'id')).toBe('ID!');
    expect(fieldType('CreditBundle', 'packageId')).toBe('ID!');
    expect(fieldType('ConnectedApp', 'clientId')).toBe('ID!');
  });
});
