import { describe, expect, it } from 'vitest';
import { prepareOperation } from '../../schema/execute.ts';
import { toDomainValues, toEnumNames } from '../../schema/facade-values.ts';

describe('facade values: the domain strings REST and agents speak ↔ GraphQL enum names', () => {
  const files = prepareOperation(
    'query Files($type: UploadType) { items: files(type: $type) { kind: type fileUrl } credits { transactions { type } } }',
  );

  it('turns a domain value into the enum name, and leaves a name or an unknown value as sent', () => {
    expect(toEnumNames({ type: 'coverArt' }, files.enums)).toEqual({ type: 'COVER_ART' });
    expect(toEnumNames({ type: 'AUDIO' }, files.enums)).toEqual({ type: 'AUDIO' });
    expect(toEnumNames({ type: 'vinyl' }, files.enums)).toEqual({ type: 'vinyl' });
  });

  it('turns enum names in the data back into domain values, through aliases, lists and nesting', () => {
    const data = {
      items: [
        { kind: 'COVER_ART', fileUrl: '/a' },
        { kind: 'AUDIO', fileUrl: '/b' },
      ],
      credits: { transactions: [{ type: 'AUTO_RELOAD' }, { type: 'GRANT' }] },
    };
    toDomainValues(data, files.enums.output);
    expect(data).toEqual({
      items: [
        { kind: 'coverArt', fileUrl: '/a' },
        { kind: 'audio', fileUrl: '/b' },
      ],
      credits: { transactions: [{ type: 'auto_reload' }, { type: 'grant' }] },
    });
  });
});
