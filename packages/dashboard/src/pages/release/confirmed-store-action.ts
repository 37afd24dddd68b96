import { clearError, showError, showNotice } from '../../lib/alerts.ts';
import { type Confirmation, confirmAction } from '../../lib/confirm.ts';

/**
 * A store action of the Release page once its form is filled in: asks first; when the person confirms,
 * runs the mutation (`act`) with the form's button disabled, shows the notice `act` answers and re-reads
 * the status (`onDone`). An error of either shows in the alert region, and the button is usable again.
 */
export async function runConfirmedStoreAction(options: {
  confirmation: Confirmation;
  button: HTMLButtonElement;
  act: () => Promise<string>;
  onDone: () => Promise<void>;
}): Promise<void> {
  if (!(await confirmAction(options.confirmation))) return;
  options.button.disabled = true;
  clearError();
  try {
    showNotice(await options.act());
    await options.onDone();
  } catch (error) {
    showError(error);
  } finally {
    options.button.disabled = false;
  }
}
