export const STORE_KINDS = ['streaming', 'download', 'social', 'video', 'content_id', 'other'] as const;
export type StoreKind = (typeof STORE_KINDS)[number];

export interface UgcPolicyCode {
  code: string;
  label: string;
  description: string;
}

export interface UgcPolicyCatalogEntry {
  storeId: number;
  kind: string;
  codes: UgcPolicyCode[];
  defaultCode: string;
}

export interface Store {
  storeId: number;
  name: string;
  featured: boolean;
  enabledByDefault: boolean;
  aliases: string[];
  kind: StoreKind;
  ugcPolicy: UgcPolicyCatalogEntry | null;
  requiresPartnerApproval: boolean;
}

export const UGC_STORE_IDS = [307, 310, 319] as const;

const CONTENT_ID_POLICY: UgcPolicyCatalogEntry = {
  storeId: 307,
  kind: 'video-platform content matching',
  codes: [
    {
      code: 'monetize',
      label: 'Monetize',
      description: 'Claim matching user videos and collect their ad revenue.',
    },
    {
      code: 'track',
      label: 'Track',
      description: 'Claim matching user videos for viewing statistics only; no ads are placed.',
    },
  ],
  defaultCode: 'monetize',
};

const RIGHTS_MANAGER_POLICY: UgcPolicyCatalogEntry = {
  storeId: 310,
  kind: 'social-platform rights manager',
  codes: [
    {
      code: 'claim_ad_earnings',
      label: 'Claim ad earnings',
      description: 'Let posts that use the recording stay up and claim a share of their ad earnings.',
    },
    {
      code: 'block',
      label: 'Block',
      description: 'Block posts that use the recording.',
    },
    {
      code: 'monitor',
      label: 'Monitor',
      description: 'Leave posts that use the recording untouched and report their usage.',
    },
  ],
  defaultCode: 'claim_ad_earnings',
};

const SHORT_VIDEO_POLICY: UgcPolicyCatalogEntry = {
  storeId: 319,
  kind: 'short-video platform',
  codes: [
    {
      code: 'monetize',
      label: 'Monetize',
      description: 'Offer the recording in the sound library and collect revenue from videos that use it.',
    },
    {
      code: 'library_only',
      label: 'Library only',
      description:
        'Offer the recording in the sound library without claiming videos uploaded with it elsewhere.',
    },
    {
      code: 'block',
      label: 'Block',
      description: 'Keep the recording out of the sound library and block videos that use it.',
    },
  ],
  defaultCode: 'monetize',
};

interface StoreSeed {
  storeId: number;
  name: string;
  kind: StoreKind;
  aliases: string[];
  featured?: boolean;
  enabledByDefault?: boolean;
  ugcPolicy?: UgcPolicyCatalogEntry;
  requiresPartnerApproval?: boolean;
}

function store(seed: StoreSeed): Store {
  return {
    storeId: seed.storeId,
    name: seed.name,
    featured: seed.featured ?? false,
    enabledByDefault: seed.enabledByDefault ?? true,
    aliases: seed.aliases,
    kind: seed.kind,
    ugcPolicy: seed.ugcPolicy ?? null,
    requiresPartnerApproval: seed.requiresPartnerApproval ?? false,
  };
}

/** Ids are stable: never renumber or reuse one, clients store them. */
export const STORES: readonly Store[] = [
  store({ storeId: 301, name: 'Spotify', kind: 'streaming', aliases: ['spotify'], featured: true }),
  store({ storeId: 302, name: 'Apple Music', kind: 'streaming', aliases: ['apple-music'], featured: true }),
  store({ storeId: 303, name: 'iTunes', kind: 'download', aliases: ['itunes', 'itunes-store'] }),
  store({
    storeId: 304,
    name: 'Amazon Music',
    kind: 'streaming',
    aliases: ['amazon-music', 'amazon'],
    featured: true,
  }),
  store({
    storeId: 305,
    name: 'YouTube Music',
    kind: 'streaming',
    aliases: ['youtube-music'],
    featured: true,
  }),
  store({ storeId: 306, name: 'Deezer', kind: 'streaming', aliases: ['deezer'], featured: true }),
  store({
    storeId: 307,
    name: 'YouTube Content ID',
    kind: 'content_id',
    aliases: ['youtube-content-id', 'content-id'],
    enabledByDefault: false,
    ugcPolicy: CONTENT_ID_POLICY,
    requiresPartnerApproval: true,
  }),
  store({ storeId: 308, name: 'Tidal', kind: 'streaming', aliases: ['tidal'], featured: true }),
  store({ storeId: 309, name: 'Pandora', kind: 'streaming', aliases: ['pandora'] }),
  store({
    storeId: 310,
    name: 'Facebook & Instagram Rights Manager',
    kind: 'social',
    aliases: ['facebook-rights-manager', 'meta-rights-manager', 'facebook', 'instagram'],
    featured: true,
    ugcPolicy: RIGHTS_MANAGER_POLICY,
  }),
  store({ storeId: 311, name: 'SoundCloud', kind: 'streaming', aliases: ['soundcloud'] }),
  store({ storeId: 312, name: 'Audiomack', kind: 'streaming', aliases: ['audiomack'] }),
  store({ storeId: 313, name: 'Anghami', kind: 'streaming', aliases: ['anghami'] }),
  store({ storeId: 314, name: 'Boomplay', kind: 'streaming', aliases: ['boomplay'] }),
  store({
    storeId: 315,
    name: 'NetEase Cloud Music',
    kind: 'streaming',
    aliases: ['netease', 'netease-cloud-music'],
  }),
  store({
    storeId: 316,
    name: 'Tencent Music (QQ Music, Kugou, Kuwo)',
    kind: 'streaming',
    aliases: ['tencent', 'tencent-music', 'qq-music'],
  }),
  store({ storeId: 317, name: 'JioSaavn', kind: 'streaming', aliases: ['jiosaavn', 'saavn'] }),
  store({ storeId: 318, name: 'Napster', kind: 'streaming', aliases: ['napster'] }),
  store({
    storeId: 319,
    name: 'TikTok',
    kind: 'video',
    aliases: ['tiktok', 'tik-tok'],
    featured: true,
    ugcPolicy: SHORT_VIDEO_POLICY,
  }),
  store({ storeId: 320, name: 'Qobuz', kind: 'download', aliases: ['qobuz'] }),
  store({ storeId: 321, name: 'Beatport', kind: 'download', aliases: ['beatport'] }),
  store({ storeId: 322, name: 'Shazam', kind: 'other', aliases: ['shazam'] }),
  store({ storeId: 323, name: 'iHeartRadio', kind: 'streaming', aliases: ['iheartradio', 'iheart'] }),
  store({ storeId: 324, name: 'KKBox', kind: 'streaming', aliases: ['kkbox'] }),
  store({ storeId: 325, name: 'Claro Música', kind: 'streaming', aliases: ['claro-musica', 'claro'] }),
  store({ storeId: 326, name: 'Yandex Music', kind: 'streaming', aliases: ['yandex-music', 'yandex'] }),
  store({ storeId: 327, name: 'Melon', kind: 'streaming', aliases: ['melon'] }),
];

export const DEFAULT_STORE_IDS: readonly number[] = STORES.filter((s) => s.enabledByDefault)
  .map((s) => s.storeId)
  .sort((a, b) => a - b);

/** Every UGC policy code some store offers (each store accepts its own subset). */
export const UGC_POLICY_CODES: readonly string[] = [
  ...new Set(
    [CONTENT_ID_POLICY, RIGHTS_MANAGER_POLICY, SHORT_VIDEO_POLICY].flatMap((policy) =>
      policy.codes.map((code) => code.code),
    ),
  ),
];

/** Content of `selectionSemantics` in the store catalog response. */
export const SELECTION_SEMANTICS = {
  field: 'distribution_store_ids',
  omitted: 'Legacy default: the release goes to every store in defaultStoreIds (all supported stores).',
  null: 'All supported stores: every store in defaultStoreIds.',
  emptyArray: 'Rejected with 422 validation_failed: send null for all stores, or at least one store.',
  array:
    'Exactly these stores. Each entry is a storeId or an alias from this catalog; duplicates are ignored.',
  aliases: 'An alias (case-insensitive) may be used in place of a store id wherever a store id is accepted.',
  unknownEntries: 'An entry that names no store of this catalog is rejected with 422 naming its position.',
  defaultStoreIds:
    'The stores with enabledByDefault true. A store that is off by default is delivered only when selected.',
  partnerApproval:
    'A store with requiresPartnerApproval true is delivered only once the account is approved for it; ' +
    'until then it is skipped with a reason.',
  ugcPolicies:
    'Stores 307, 310 and 319 apply the release user-generated-content policy; ' +
    'without a choice their defaultCode applies.',
} as const;

const STORES_BY_ID = new Map(STORES.map((s) => [s.storeId, s]));
const STORES_BY_ALIAS = new Map(STORES.flatMap((s) => s.aliases.map((alias) => [alias, s] as const)));

export function findStore(id: number): Store | undefined {
  return STORES_BY_ID.get(id);
}

/** A known store id from a number, numeric string or alias (any case; spaces or underscores for hyphens). */
export function resolveStoreId(idOrAlias: string | number): number | null {
  if (typeof idOrAlias === 'number') {
    return STORES_BY_ID.has(idOrAlias) ? idOrAlias : null;
  }
  const text = idOrAlias.trim();
  if (/^\d+$/.test(text)) {
    return resolveStoreId(Number(text));
  }
  const alias = text.toLowerCase().replace(/[\s_]+/g, '-');
  return STORES_BY_ALIAS.get(alias)?.storeId ?? null;
}

/**
 * The synthetic store of streaming reports: plays of a release's music on the video-music platform
 * (official videos and art tracks), which distributors report apart from the stores a release is
 * delivered to. It is never delivered to, so it is not in STORES.
 */
export const VIDEO_MUSIC_STORE = { storeId: -1300, name: 'Video-music platform' } as const;

/** The name a streaming report shows for a store id (the catalog's, the synthetic store's, or the id). */
export function reportingStoreName(storeId: number): string {
  if (storeId === VIDEO_MUSIC_STORE.storeId) return VIDEO_MUSIC_STORE.name;
  return findStore(storeId)?.name ?? `Store ${storeId}`;
}

/** Whether streaming reports know this store id (a catalog store or the synthetic one). */
export function isReportingStore(storeId: number): boolean {
  return storeId === VIDEO_MUSIC_STORE.storeId || STORES_BY_ID.has(storeId);
}
