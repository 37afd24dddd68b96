import { type GraphQLObjectType, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { getSchema } from '../../schema/index.ts';

const schema = getSchema();
const eventInterface = schema.getType('ReleaseEvent');
if (!eventInterface || !('getFields' in eventInterface)) throw new Error('ReleaseEvent is not in the schema');
const eventTypes: readonly GraphQLObjectType[] = schema.getImplementations(eventInterface as never).objects;

/** Every field name found on more than one event type, with the type each of them gives it. */
function sharedFields(): Map<string, Map<string, string>> {
  const byField = new Map<string, Map<string, string>>();
  for (const type of eventTypes) {
    for (const field of Object.values(type.getFields())) {
      const types = byField.get(field.name) ?? new Map<string, string>();
      types.set(type.name, String(field.type));
      byField.set(field.name, types);
    }
  }
  return new Map([...byField].filter(([, types]) => types.size > 1));
}

describe('release event types agree on the fields they share', () => {
  it('has the four kinds of event', () => {
    expect(eventTypes.map((type) => type.name).sort()).toEqual([
      'ReleaseApproved',
      'ReleaseStatusChanged',
      'ReleaseStoresAdded',
      'ReleaseTakedownCompleted',
    ]);
  });

  it('gives each shared field one type on every event type', () => {
    const disagreeing = [...sharedFields()]
      .filter(([, types]) => new Set(types.values()).size > 1)
      .map(([name, types]) => `${name}: ${[...types].map(([type, of]) => `${of} on ${type}`).join(', ')}`);
    expect(disagreeing).toEqual([]);
  });

  it('declares a field every kind carries on the interface, with the same type', () => {
    const interfaceFields = (eventInterface as GraphQLObjectType).getFields();
    const onAll = [...sharedFields()].filter(([, types]) => types.size === eventTypes.length);
    const mismatched = onAll
      .filter(([name, types]) => String(interfaceFields[name]?.type) !== [...types.values()][0])
      .map(
        ([name, types]) => `${name}: ${[...types.values()][0]} on the kinds, ${interfaceFields[name]?.type}`,
      );
    expect(mismatched).toEqual([]);
    expect(String(interfaceFields.status?.type)).toBe('AggregateStatus!');
    expect(String(interfaceFields.releaseId?.type)).toBe('ID!');
  });

  it('validates a subscription selecting the shared fields in fragments on every kind', () => {
    const fragments = eventTypes
      .map((type) => {
        const own = Object.keys(type.getFields()).filter((name) => sharedFields().has(name));
        const scalars = own.filter(
          (name) => !['storeStatuses', 'artistProfiles', 'skippedStores'].includes(name),
        );
        const objects = own.includes('storeStatuses') ? ' storeStatuses { storeId statusText }' : '';
        return `... on ${type.name} { ${scalars.join(' ')}${objects} }`;
      })
      .join('\n');
    const document = parse(`subscription { releaseEvents { ${fragments} } }`);
    expect(validate(schema, document).map((error) => error.message)).toEqual([]);
  });

  it('validates the dashboard subscription: status and releaseId in fragments on two kinds', () => {
    const document = parse(`subscription {
      releaseEvents {
        ... on ReleaseStatusChanged { releaseId status previousStatus }
        ... on ReleaseApproved { releaseId status upc }
        ... on ReleaseStoresAdded { releaseId status storeIds }
      }
    }`);
    expect(validate(schema, document).map((error) => error.message)).toEqual([]);
  });
});
