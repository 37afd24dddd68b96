import { LANGUAGE_SCRIPT_CODES, type LanguageScriptCode } from '../../src/domains/catalog/index.ts';
import { builder, MCP } from '../builder.ts';

const LanguageScriptCodeRef = builder.objectRef<LanguageScriptCode>('LanguageScriptCode').implement({
  description: 'A valid `language_and_script_code` and the language it pairs with.',
  fields: (t) => ({
    code: t.exposeString('code'),
    language: t.exposeString('language', {
      description: 'ISO 639-1 code of the language the script pairs with.',
    }),
    languageName: t.exposeString('languageName'),
    script: t.exposeString('script', { description: 'ISO 15924 script code.' }),
    scriptName: t.exposeString('scriptName'),
  }),
});

builder.queryField('languageScriptCodes', (t) =>
  t.field({
    type: [LanguageScriptCodeRef],
    authScopes: MCP,
    description: 'Every valid `language_and_script_code` and the language it pairs with.',
    resolve: () => [...LANGUAGE_SCRIPT_CODES],
  }),
);
