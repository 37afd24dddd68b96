import { CheckoutSession } from './checkout-session.entity.ts';
import { Payment } from './payment.entity.ts';
import { PaymentCustomer } from './payment-customer.entity.ts';
import { SavedCard } from './saved-card.entity.ts';

/** The payments domain's entities, for `src/entities.ts`. */
export const paymentEntities = [CheckoutSession, Payment, SavedCard, PaymentCustomer];
