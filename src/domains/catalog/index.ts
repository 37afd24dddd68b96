export { AGENT_GUIDE_MARKDOWN } from './agent-guide.ts';
export { catalogueGenre, GENRES } from './genres.ts';
export {
  findLanguageScriptCode,
  ISO_639_1,
  LANGUAGE_SCRIPT_CODES,
  type LanguageScriptCode,
} from './language-script-codes.ts';
export {
  DEFAULT_STORE_IDS,
  findStore,
  isReportingStore,
  reportingStoreName,
  resolveStoreId,
  SELECTION_SEMANTICS,
  STORE_KINDS,
  STORES,
  type Store,
  UGC_POLICY_CODES,
  UGC_STORE_IDS,
  type UgcPolicyCatalogEntry,
  type UgcPolicyCode,
  VIDEO_MUSIC_STORE,
} from './stores.ts';
