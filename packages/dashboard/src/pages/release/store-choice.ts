import type { DashboardAddStoresMutation, SkipReason } from '../../generated/graphql.ts';
import { h, replaceChildren } from '../../lib/dom.ts';

export interface StoreOption {
  storeId: number;
  label: string;
}

type Skipped = DashboardAddStoresMutation['distributeRelease']['skippedStoreIds'];

const SKIP_REASONS: Record<SkipReason, string> = {
  ALREADY_DELIVERED: 'it has the release already',
  ALREADY_TAKEN_DOWN: 'it took the release down already',
  NOT_DELIVERED: 'it never had the release',
  PARTNER_APPROVAL_REQUIRED: 'it delivers only once your account is approved for it',
  TAKEDOWN_PENDING: 'a takedown from it is under way',
  UGC_POLICY_UNRESOLVABLE: 'no user-generated-content policy could be chosen for it',
};

/** "Left out: YouTube Content ID (it delivers only once …)." — empty when nothing was skipped. */
export const skippedText = (skipped: Skipped) =>
  skipped.length === 0
    ? ''
    : ` Left out: ${skipped.map((s) => `${s.storeName} (${SKIP_REASONS[s.reason] ?? s.reason})`).join('; ')}.`;

/** "Spotify", "Spotify and Deezer", "Spotify, Deezer and 3 more". */
export function storeList(names: readonly string[]): string {
  if (names.length <= 2) return names.join(' and ');
  if (names.length <= 4) return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`;
}

/**
 * A fieldset of store checkboxes that can be filled again as the release's stores change, and the
 * message said when none is ticked (an alert beside it, so a screen reader hears it at once).
 */
export function storeChoice(legend: string, name: string) {
  const boxes = h('div', { class: 'store-choices' });
  const problem = h('p', { class: 'form-problem', role: 'alert' });
  const element = h('fieldset', {}, h('legend', {}, legend), boxes, problem);
  return {
    element,
    show(options: readonly StoreOption[]) {
      const ticked = new Set(this.chosen());
      replaceChildren(
        boxes,
        options.map((option) =>
          h(
            'label',
            { class: 'check' },
            h('input', {
              type: 'checkbox',
              name,
              value: option.storeId,
              checked: ticked.has(option.storeId),
            }),
            option.label,
          ),
        ),
      );
      problem.textContent = '';
    },
    chosen(): number[] {
      return [...boxes.querySelectorAll<HTMLInputElement>('input:checked')].map((input) =>
        Number(input.value),
      );
    },
    complain(text: string) {
      problem.textContent = text;
    },
  };
}
