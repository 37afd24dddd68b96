/** 1 credit = 1 USD. Submission: 1 credit per human song, 2 per AI song; token offset +1 per release. */
export const CREDIT_PRICE_CENTS = 100;
export const CREDITS_PER_HUMAN_TRACK = 1;
export const CREDITS_PER_AI_TRACK = 2;
export const TOKEN_OFFSET_CREDITS = 1;
export const CUSTOM_CHECKOUT_CREDITS = { min: 1, max: 1000 } as const;

export interface Bundle {
  packageId: string;
  credits: number;
  priceCents: number;
  tag: string | null;
}

export const BUNDLES: readonly Bundle[] = [
  { packageId: 'credits_10', credits: 10, priceCents: 1000, tag: null },
  { packageId: 'credits_25', credits: 25, priceCents: 2250, tag: 'popular' },
  { packageId: 'credits_50', credits: 50, priceCents: 4000, tag: null },
  { packageId: 'credits_100', credits: 100, priceCents: 7500, tag: 'best_value' },
];

const usd = (cents: number) => Math.round(cents) / 100;

export function describeBundle(bundle: Bundle) {
  const listCents = bundle.credits * CREDIT_PRICE_CENTS;
  return {
    packageId: bundle.packageId,
    credits: bundle.credits,
    priceUsd: usd(bundle.priceCents),
    perCreditUsd: Math.round((bundle.priceCents / bundle.credits) * 100) / 10_000,
    discountPercent: Math.round(((listCents - bundle.priceCents) / listCents) * 100),
    savingsUsd: usd(listCents - bundle.priceCents),
    tag: bundle.tag,
  };
}

/** The cheapest bundle that covers `credits`, or null when none is large enough. */
export function cheapestBundleCovering(credits: number): Bundle | null {
  const covering = BUNDLES.filter((bundle) => bundle.credits >= credits);
  return covering.reduce<Bundle | null>(
    (best, b) => (best === null || b.priceCents < best.priceCents ? b : best),
    null,
  );
}

export function pricing() {
  return {
    currency: 'USD',
    perCredit: { usd: usd(CREDIT_PRICE_CENTS), cents: CREDIT_PRICE_CENTS },
    perSong: {
      human: CREDITS_PER_HUMAN_TRACK,
      ai: CREDITS_PER_AI_TRACK,
      aiSurcharge: CREDITS_PER_AI_TRACK - CREDITS_PER_HUMAN_TRACK,
    },
    tokenOffset: {
      credits: TOKEN_OFFSET_CREDITS,
      costUsd: usd(TOKEN_OFFSET_CREDITS * CREDIT_PRICE_CENTS),
      optional: true,
    },
    bundles: BUNDLES.map(describeBundle),
    autoReload: { available: true, requiresSavedCard: true, mcp: { read: true, configure: true } },
    creditsNeverExpire: true,
  };
}

/** Where credits are bought, on each surface: what the quote's purchase and the shortfall error point at. */
export const CHECKOUT_ENDPOINT = { method: 'POST', path: '/v1/credits/checkout' } as const;
export const CHECKOUT_TOOL = 'create_credit_checkout_session';

/** A ready-made checkout request for a bundle, on each surface in its own field names. */
export function checkoutLinkFor(packageId: string) {
  return {
    ...CHECKOUT_ENDPOINT,
    body: { package_id: packageId },
    agentTool: CHECKOUT_TOOL,
    agentArguments: { packageId },
  };
}
