import { type Child, h } from './dom.ts';

/** What a confirmation asks: its heading, what will happen, and the confirm button's label. */
export interface Confirmation {
  title: string;
  consequences: Child[];
  confirmLabel: string;
  /** An action that cannot be undone: the confirm button says so by its style too. */
  destructive?: boolean;
}

/**
 * Asks before an action with consequences: a modal `<dialog>` (focus moves into it, Escape cancels)
 * with a heading, what will happen, and two buttons; Cancel has the focus first, so Enter alone never
 * confirms. Answers true when the person confirmed. Focus goes back to where it was.
 */
export function confirmAction(options: Confirmation): Promise<boolean> {
  const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const cancel = h('button', { type: 'submit', value: 'cancel', class: 'secondary' }, 'Cancel');
  const confirm = h(
    'button',
    { type: 'submit', value: 'confirm', class: options.destructive ? 'danger' : null },
    options.confirmLabel,
  );
  const dialog = h(
    'dialog',
    { 'aria-labelledby': 'confirm-heading', 'aria-describedby': 'confirm-consequences' },
    h(
      'form',
      { method: 'dialog', class: 'stack' },
      h('h2', { id: 'confirm-heading' }, options.title),
      h('div', { id: 'confirm-consequences' }, options.consequences),
      h('div', { class: 'actions' }, cancel, confirm),
    ),
  );
  document.body.append(dialog);
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => {
      dialog.remove();
      opener?.focus();
      resolve(dialog.returnValue === 'confirm');
    });
    dialog.showModal();
    cancel.focus();
  });
}
