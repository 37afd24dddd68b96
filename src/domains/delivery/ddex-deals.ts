import type { Store } from '../catalog/index.ts';
import { type XmlNode, xml, xmlText } from './xml.ts';

interface DealModel {
  commercialModel: string;
  useTypes: string[];
  rightsClaimPolicy?: string;
}

/**
 * The catalog's UGC policy codes as ERN 4.3 RightsClaimPolicyTypes (BlockAccess, Monetize and
 * ReportUsage are the only ones it has), and whether the recording is offered in the platform's
 * own sound library (a label-provided use) besides being matched in user uploads.
 */
const UGC_POLICIES: Record<string, { policy: string; inLibrary: boolean }> = {
  monetize: { policy: 'Monetize', inLibrary: true },
  claim_ad_earnings: { policy: 'Monetize', inLibrary: true },
  track: { policy: 'ReportUsage', inLibrary: false },
  monitor: { policy: 'ReportUsage', inLibrary: true },
  library_only: { policy: 'ReportUsage', inLibrary: true },
  block: { policy: 'BlockAccess', inLibrary: false },
};

/** Platforms where users upload content that uses the recording: they get rights claims, not sales. */
export function isUgcStore(store: Store): boolean {
  return store.kind === 'social' || store.kind === 'video' || store.kind === 'content_id';
}

/** What each kind of store is licensed for. */
export function dealModelsFor(store: Store, ugcPolicy: string | null): DealModel[] {
  switch (store.kind) {
    case 'download':
      return [{ commercialModel: 'PayAsYouGoModel', useTypes: ['PermanentDownload'] }];
    case 'social':
    case 'video':
    case 'content_id': {
      const code = ugcPolicy ?? store.ugcPolicy?.defaultCode ?? 'track';
      const { policy, inLibrary } = UGC_POLICIES[code] ?? { policy: 'ReportUsage', inLibrary: false };
      const library = inLibrary && store.kind !== 'content_id';
      return [
        {
          commercialModel: 'RightsClaimModel',
          useTypes: [...(library ? ['UserMakeAvailableLabelProvided'] : []), 'UserMakeAvailableUserProvided'],
          rightsClaimPolicy: policy,
        },
      ];
    }
    default:
      return [
        { commercialModel: 'SubscriptionModel', useTypes: ['OnDemandStream', 'NonInteractiveStream'] },
        { commercialModel: 'AdvertisementSupportedModel', useTypes: ['OnDemandStream'] },
      ];
  }
}

export interface DealWindow {
  start: string;
  /** Set on a takedown: the deals end on this date. */
  end?: string | null;
}

/**
 * A single ReleaseDeal: the given releases, each of the store's models worldwide from `start`
 * (and until `end` for a takedown, which in ERN 4 is the same deals with their validity closed).
 */
export function dealList(store: Store, ugcPolicy: string | null, releases: string[], window: DealWindow) {
  const start = window.end && window.end < window.start ? window.end : window.start;
  const deals: XmlNode[] = dealModelsFor(store, ugcPolicy).map((model) =>
    xml(
      'Deal',
      null,
      xml(
        'DealTerms',
        null,
        xml('TerritoryCode', null, 'Worldwide'),
        xml('ValidityPeriod', null, xml('StartDate', null, start), xmlText('EndDate', window.end)),
        xml('CommercialModelType', null, model.commercialModel),
        ...model.useTypes.map((useType) => xml('UseType', null, useType)),
        model.rightsClaimPolicy
          ? xml('RightsClaimPolicy', null, xml('RightsClaimPolicyType', null, model.rightsClaimPolicy))
          : null,
      ),
    ),
  );
  return xml(
    'DealList',
    null,
    xml(
      'ReleaseDeal',
      null,
      ...releases.map((reference) => xml('DealReleaseReference', null, reference)),
      ...deals,
    ),
  );
}
